"""Ladders: ratings (Elo, skill with uncertainty, batch refit), what a result means for each seat,
ranking a ladder's rows, and the continuous ladder's matchmaking.

Pure functions, none touching the store: :mod:`~arena.ladders.elo`, :mod:`~arena.ladders.skill`,
:mod:`~arena.ladders.scoring`, :mod:`~arena.ladders.rows`, :mod:`~arena.ladders.refit`,
:mod:`~arena.ladders.pairing`. Reading the store: :mod:`~arena.ladders.ladder` (a page for display)
and :mod:`~arena.ladders.matchmaking` (the scheduler's ticks).
"""
