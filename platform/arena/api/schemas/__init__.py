"""The API's request and response schemas (marshmallow); flask-smorest turns them into OpenAPI.

One module per resource (:mod:`~arena.api.schemas.bots`, :mod:`~arena.api.schemas.matches`, ...),
the fields they share in :mod:`~arena.api.schemas.common`.

Request schemas refuse unknown fields, so a typo in a field name is a 422 naming it rather than a
silently ignored setting. Their numbers and flags take JSON integers and booleans only: marshmallow
would otherwise read ``1.5`` as 1, ``"7"`` as 7 and ``"yes"`` or ``1`` as true, and a seed or a seat
count silently rounded is worse than a refusal.
"""
