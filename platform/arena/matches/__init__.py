"""Matches: requesting one (checked once, stored, queued) and the view of one as it stands, and moving
old ended ones out of Redis into the replay store.

What a match is, as stored, is :mod:`arena.records`; playing one is the worker's
(:mod:`arena.worker.execution`).
"""
