"""Volcano Arena's service: the REST API, the Redis store, the match queue, ladders and tournaments.

The service never names a game: everything it knows about games comes from
:mod:`referee.registry`, so a new game appears in the API, the ladders and the demo by itself.
"""
