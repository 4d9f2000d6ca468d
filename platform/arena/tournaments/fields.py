"""How many entrants a format plays with, pure: the least it can play, the most it holds, and the
field it can hold nearest below a given size.

A field a format cannot hold is never a failure at the start: a Swiss and a knockout of duels give
byes; a knockout of pods of 3 or 4 (each pod sends ``advance`` on, so only some sizes come down to
one final pod) and a round robin or gauntlet over the platform's match limit leave out the lowest
seeds down to the largest field they hold.
"""

from __future__ import annotations

from arena.tournaments import formats, knockout

MAX_FIELD = 200
"""The most bots a tournament takes (as the ``bots`` list of a request)."""


def least_entrants(format_name: str, seats: int) -> int:
    """The fewest bots the format plays with."""
    return max(seats, 2)


def most_entrants(format_name: str, seats: int, games: int, match_limit: int) -> int:
    """The most bots the format holds: :data:`MAX_FIELD`, fewer for a round robin or gauntlet whose
    matches would pass ``match_limit``."""
    if format_name in ("round_robin", "gauntlet"):
        size = MAX_FIELD
        while size > least_entrants(format_name, seats) and (
            formats.match_count(format_name, size, seats, games) > match_limit
        ):
            size -= 1
        return size
    return MAX_FIELD


def held_field(format_name: str, size: int, seats: int, advance: int, most: int) -> tuple[int, str | None]:
    """The largest field of at most ``size`` bots the format holds, and why the rest are left out.

    >>> held_field("knockout", 7, 4, 2, 200)
    (6, 'a knockout of pods of 4 sending 2 on needs a field of 4, 6, 8, 10, ... bots')
    >>> held_field("knockout", 7, 2, 1, 200), held_field("swiss", 7, 2, 0, 200)
    ((7, None), (7, None))
    """
    reason = None
    if size > most:
        reason = f"the tournament holds at most {most} bots"
        size = most
    if format_name == "knockout" and seats > 2:
        fitted = size
        while fitted >= seats and knockout.knockout_field_error(fitted, seats, advance) is not None:
            fitted -= 1
        if fitted != size:
            reason = knockout.knockout_field_error(size, seats, advance)
            size = max(fitted, 0)
    return size, reason
