"""A gauntlet's result is the challenger's, pure: its record against the field, and whether it beat it.

In a gauntlet (:func:`arena.tournaments.formats.schedule`) the first bot, the challenger, meets
every combination of the others; the bots of the field meet each other only beside it, if at all,
so ranking them against each other names no one who earned anything. What the gauntlet tells is
how the challenger did:

- **its record**: over its counted matches, its wins, draws and losses (first place alone, shared,
  anything else: :func:`arena.ladders.scoring.seat_verdicts`, so a lost team game is a loss) and
  its points (one a match, shared by the seats in first place), as the standings count them;
- **per opponent**: against each bot of the field, over the matches they played together, what
  the challenger scored against it (:func:`arena.tournaments.tally.pairwise`: 1 for placing ahead,
  ½ level, 0 behind; 0 in a team game lost): a win, a draw or a loss each, summed in ``points``;
- **the rule**: the challenger *beat the field* when it scored more than half against every bot of
  the field (``points > games / 2`` for each, each having played it at least once). Only then is it
  the gauntlet's winner; otherwise the gauntlet has none: a bot of the field is never its winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.records import MatchRecord
from arena.tournaments.tally import counts, pairwise, rounded, tally

BEAT_THE_FIELD = "more than half the points against every bot of the field"
"""The rule, in the words the API and the page show."""


def record(
    bots: Sequence[str], names: Mapping[str, str], matches: Sequence[MatchRecord], team: bool
) -> dict[str, Any]:
    """The challenger's (``bots[0]``) record against the field (see the module doc)."""
    challenger = bots[0]
    row = tally(bots, names, matches, team)[challenger]
    opponents: dict[str, dict[str, Any]] = {
        bot: {
            "bot_id": bot,
            "name": names.get(bot, bot),
            "games": 0,
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "points": 0.0,
        }
        for bot in bots[1:]
    }
    for match in matches:
        if not counts(match) or match.result is None or challenger not in match.bots:
            continue
        shares = pairwise(match.result, team)
        seat = match.bots.index(challenger)
        for other_seat, other in enumerate(match.bots):
            if other == challenger or other not in opponents:
                continue
            share = shares[seat][other_seat]
            cell = opponents[other]
            cell["games"] += 1
            cell["points"] += share
            cell["wins" if share == 1.0 else "draws" if share == 0.5 else "losses"] += 1
    for cell in opponents.values():
        cell["points"] = round(cell["points"], 4)
        cell["beaten"] = cell["games"] > 0 and rounded(cell["points"]) > rounded(cell["games"] / 2)
    return {
        "bot_id": challenger,
        "name": names.get(challenger, challenger),
        "played": row["played"],
        "wins": row["wins"],
        "draws": row["draws"],
        "losses": row["losses"],
        "points": round(row["points"], 4),
        "score_sum": round(row["score_sum"], 4),
        "opponents": list(opponents.values()),
        "beat_the_field": bool(opponents) and all(cell["beaten"] for cell in opponents.values()),
        "rule": BEAT_THE_FIELD,
    }
