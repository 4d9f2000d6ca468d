"""Game referees: pure engines behind one interface (:mod:`referee.game`), and the match runner
that drives an engine against bots and writes the replay; the network side (reaching a bot, the
endpoint policy, the ping) apart in :mod:`referee.transport`."""
