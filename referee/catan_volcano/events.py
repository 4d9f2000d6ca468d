"""The event log observations show: what happened, with secrets only for the seats that may know.

An event is a small JSON object with ``type`` and ``turn``; a ``secret`` part (the card a thief
took, the development card a seat bought) is merged into the event only for the seats named in it
(:func:`visible`). The log keeps the current turn and the previous ``seats`` turns, so every seat
sees at least everything since its own last turn.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from referee.catan_volcano.edition import EDITION

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

RESOURCES = EDITION.resources


def record(
    state: Position,
    event: dict[str, Any],
    secret: dict[str, Any] | None = None,
    shown_to: tuple[int, ...] = (),
) -> None:
    """Append an event of the current turn; ``secret`` fields are for the ``shown_to`` seats only.

    The most frequent events (a roll, its production, the end of a turn: a few on every turn) are
    appended by their rules directly, with ``turn`` written last as here, to save the call."""
    event["turn"] = state.turn
    if secret is not None:
        event["secret"] = {"seats": list(shown_to), "fields": secret}
        state.secret_events.append((state.forgotten + len(state.events), event, {}))
    state.events.append(event)


def forget_before(state: Position, turn: int) -> None:
    """Drop the events of turns before ``turn``."""
    events = state.events
    drop = bisect_left(events, turn, key=_TURN)  # events are recorded in turn order: old ones first
    if drop:
        del events[:drop]  # in place: observations and copies of the state hold copies of the log
        forgotten = state.forgotten = state.forgotten + drop
        secrets = state.secret_events
        if secrets and secrets[0][0] < forgotten:
            state.secret_events = [secret for secret in secrets if secret[0] >= forgotten]


def index_secrets(state: Position) -> None:
    """Find the secret events of the log afresh (after a load, or a log changed by hand).

    :func:`record` and :func:`forget_before` keep ``state.secret_events`` up to date as the game
    goes: per event with a secret, its place counted from the first event ever recorded
    (``state.forgotten`` counts those dropped), the event, and its views by seat so far (made by
    :func:`visible` on first use: events are never changed once recorded)."""
    state.forgotten = 0
    state.secret_events = [
        (index, event, {}) for index, event in enumerate(state.events) if "secret" in event
    ]


_TURN = itemgetter("turn")


def visible(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """The event as ``seat`` sees it: secret fields merged in for the seats they are shown to.

    >>> steal = {"type": "steal", "seat": 0, "victim": 2, "turn": 5,
    ...          "secret": {"seats": [0, 2], "fields": {"resource": "ore"}}}
    >>> visible(steal, 1)
    {'type': 'steal', 'seat': 0, 'victim': 2, 'turn': 5}
    >>> visible(steal, 2)["resource"]
    'ore'
    """
    secret = event.get("secret")
    if secret is None:
        return dict(event)
    shown = event.copy()  # the keys in their order, the secret (recorded last) taken out
    del shown["secret"]
    if seat in secret["seats"]:
        shown.update(secret["fields"])
    return shown


def named(counts: list[int] | tuple[int, ...]) -> dict[str, int]:
    """Per-resource counts as a JSON object of the non-zero ones.

    >>> named([0, 2, 0, 0, 1])
    {'brick': 2, 'ore': 1}
    """
    return {name: count for name, count in zip(RESOURCES, counts, strict=True) if count}
