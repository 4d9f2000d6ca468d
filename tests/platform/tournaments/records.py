"""Tournament and match records for the result models' table tests, built one way for every file:
only what a test varies (format, bots, the format's own fields, places and scores) is given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arena.records import MatchRecord, MatchStatus, TournamentRecord
from referee.replay import MatchResult


def tournament_record(
    format_name: str, bots: Sequence[str], seats: int = 2, **fields: object
) -> TournamentRecord:
    """A tournament of ``bots`` (each named as its id in capitals) in ``format_name``; ``fields`` are
    the format's own (rounds, advance, seeds, pod_ties)."""
    return TournamentRecord(
        id="t",
        name="t",
        game="g",
        variant="v",
        format=format_name,
        bots=tuple(bots),
        names={bot: bot.upper() for bot in bots},
        seats_per_match=seats,
        games_per_pairing_requested=1,
        games_per_pairing=1,
        seed=1,
        options={},
        time={"move_ms": 2000, "bank_ms": 0},
        rated=True,
        max_faults=3,
        match_count=0,
        created_at="2026-01-01T00:00:00Z",
        created_ts=0.0,
        **fields,  # type: ignore[arg-type]  # the format's own fields
    )


def finished(
    match_id: str, bots: Sequence[str], places: Sequence[int], scores: Sequence[float] = ()
) -> MatchRecord:
    """A finished match of ``bots`` in seat order, with their places (1 first) and scores (by
    default one point a place better than last)."""
    record = MatchRecord.new(match_id, "g", "v", tuple(bots), tuple(bots), rated=True)
    scores = tuple(scores) or tuple(float(len(places) - place) for place in places)
    return replace(
        record, status=MatchStatus.FINISHED, result=MatchResult(tuple(places), tuple(scores), "end")
    )
