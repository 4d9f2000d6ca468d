"""Tournaments: round robin and gauntlet schedules, Swiss and knockout rounds, standings.

Pure functions, none touching the store: :mod:`~arena.tournaments.formats` (schedules, pairings,
standings) and :mod:`~arena.tournaments.rounds` (the next round). Storing and queueing:
:mod:`~arena.tournaments.tournament_requests` (creating one, and its view) and
:mod:`~arena.tournaments.progress` (each next round, once).
"""
