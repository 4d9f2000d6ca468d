"""Game referees: pure engines behind one interface (:mod:`referee.game`), and the match runner
that drives an engine against bots and writes the replay."""
