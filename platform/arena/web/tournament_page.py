"""What the tournament page draws of each format, from the tournament as the API shows it: a
knockout's bracket (every round, planned ones too, byes, the winner's path, a tied pod's replays), a
Swiss's rounds with their pairings, a round robin's cross table; each match a link to its page.

The ranking and the bracket themselves are :mod:`arena.tournaments.results`'; this only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.tournaments.knockout import knockout_shape
from arena.tournaments.tally import pairwise
from referee.replay import MatchResult

HALF = "½"


def _points(value: float) -> str:
    """A score as a cross table prints it: 1, ½, 1½, or 0.33 for a share of a pod's point.

    >>> [_points(v) for v in (0.0, 0.5, 1.0, 1.5, 1 / 3)]
    ['0', '½', '1', '1½', '0.33']
    """
    doubled = value * 2
    if abs(doubled - round(doubled)) > 1e-9:
        return f"{value:.2f}"
    whole, half = divmod(round(doubled), 2)
    return f"{whole or ''}{HALF}" if half else str(whole)


def _seats(
    match: Mapping[str, Any], names: Mapping[str, str], seeds: Mapping[str, int]
) -> list[dict[str, Any]]:
    """The match's seats for show: bot, name, seed, place once finished."""
    result = match.get("result") if match["status"] == "finished" else None
    # a team game the team lost ranks nobody: no places shown, no winner marked
    places = result["places"] if result and result.get("team_won") is not False else None
    return [
        {
            "bot_id": bot,
            "name": names.get(bot, bot),
            "seed": seeds.get(bot),
            "place": places[seat] if places else None,
        }
        for seat, bot in enumerate(match["bots"])
    ]


def bracket(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The knockout's columns, one per round (the rounds not made yet as empty pods), each with its
    entries: pods (seats best first once ended, who went on, whether the winner played it) and byes,
    ordered by the pod of the next round they feed, so each pod sits beside the ones feeding it."""
    drawn = view.get("bracket")
    if not drawn:
        return []
    names, matches = view["names"], {m["id"]: m for m in view["matches"]}
    seeds = {bot: index + 1 for index, bot in enumerate(view.get("seeds") or view["bots"])}
    winner = drawn["winner"]
    shape = knockout_shape(len(view["bots"]), view["seats_per_match"], view["advance"])
    made_rounds = drawn["rounds"]
    columns = []
    for number, (pod_count, bye_count) in enumerate(shape, start=1):
        made = made_rounds[number - 1] if number <= len(made_rounds) else None
        entries: list[dict[str, Any]]
        if made is None:
            entries = [{"kind": "planned"}] * pod_count + (
                [{"kind": "byes", "count": bye_count}] if bye_count else []
            )
        else:
            entries = [_pod(pod, matches, names, seeds, winner) for pod in made["pods"]]
            entries += [
                {
                    "kind": "bye",
                    "goes_on": [bot],
                    "seats": [{"bot_id": bot, "name": names.get(bot, bot), "seed": seeds.get(bot)}],
                    "path": bot == winner,
                }
                for bot in made["byes"]
            ]
            if number < len(made_rounds):
                feeds = {
                    bot: index for index, pod in enumerate(made_rounds[number]["pods"]) for bot in pod["bots"]
                }
                entries.sort(
                    key=lambda entry: min(
                        (feeds.get(bot, len(feeds)) for bot in entry["goes_on"]), default=len(feeds)
                    )
                )
        title = "Final" if number == len(shape) else f"Round {number}"
        columns.append({"round": number, "title": title, "entries": entries})
    return columns


def _pod(
    pod: Mapping[str, Any],
    matches: Mapping[str, Mapping[str, Any]],
    names: Mapping[str, str],
    seeds: Mapping[str, int],
    winner: str | None,
) -> dict[str, Any]:
    """One pod for show. A replayed pod shows the places of the match that decided it (while
    undecided, of its latest match) and lists its match and every replay, each to be linked."""
    unplayed = {"bots": pod["bots"], "status": "queued", "result": None}
    played = [pod["match"], *pod.get("replays", ())]
    shown = pod.get("decided_by") or played[-1]
    match = matches.get(shown, unplayed)
    seats = _seats(match, names, seeds)
    order = {bot: index for index, bot in enumerate(pod["ranking"])}
    seats.sort(key=lambda seat: order.get(seat["bot_id"], seat["seed"] or 0))
    for seat in seats:
        seat["advanced"] = seat["bot_id"] in pod["advanced"]
        seat["path"] = seat["bot_id"] == winner
    latest = matches.get(played[-1], unplayed)
    return {
        "kind": "pod",
        "match": pod["match"],
        "seats": seats,
        "status": latest["status"],
        "path": pod["winner_path"],
        "goes_on": list(pod["advanced"]),
        "plays": [
            {
                "match": match_id,
                "label": "replay " + str(number) if number else "match",
                "status": matches.get(match_id, unplayed)["status"],
                "decided": match_id == pod.get("decided_by"),
            }
            for number, match_id in enumerate(played)
        ]
        if len(played) > 1
        else [],
    }


def swiss_rounds(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each Swiss round made: its pairings (seats in seat order, places once finished) and byes."""
    names, matches = view["names"], {m["id"]: m for m in view["matches"]}
    rounds = []
    for made in view.get("rounds_made") or []:
        pairings = [
            {
                "match": match_id,
                "seats": _seats(matches[match_id], names, {}),
                "status": matches[match_id]["status"],
            }
            for match_id in made["matches"]
            if match_id in matches
        ]
        byes = [{"bot_id": bot, "name": names.get(bot, bot)} for bot in made["byes"]]
        rounds.append({"round": made["round"], "pairings": pairings, "byes": byes})
    return rounds


def cross_table(view: Mapping[str, Any], team: bool) -> dict[str, Any]:
    """The cross table in standings order: each cell the row bot's total against the column bot and
    every match between them, linked, with what the row bot scored in it (… while unplayed,
    – aborted or cancelled)."""
    order = [row["bot_id"] for row in view["standings"]]
    totals = view.get("cross_table") or {}
    cells: dict[str, dict[str, list[dict[str, str]]]] = {bot: {other: [] for other in order} for bot in order}
    for match in view["matches"]:
        shares = None
        if match["status"] == "finished" and match.get("result"):
            shares = pairwise(MatchResult.from_json(match["result"]), team)
        for i, bot in enumerate(match["bots"]):
            for j, other in enumerate(match["bots"]):
                if i == j or bot not in cells or other not in cells[bot]:
                    continue
                if shares is not None:
                    mark = _points(shares[i][j])
                else:
                    mark = "…" if match["status"] in ("queued", "running") else "–"
                cells[bot][other].append({"match": match["id"], "mark": mark, "status": match["status"]})
    rows = []
    for bot in order:
        row = []
        for other in order:
            total = totals.get(bot, {}).get(other)
            row.append(
                {
                    "self": bot == other,
                    "total": _points(total["points"]) if total else "",
                    "games": total["games"] if total else 0,
                    "matches": cells[bot][other],
                }
            )
        rows.append({"bot_id": bot, "name": view["names"].get(bot, bot), "cells": row})
    return {"columns": [{"bot_id": bot, "name": view["names"].get(bot, bot)} for bot in order], "rows": rows}


def winners(view: Mapping[str, Any]) -> list[dict[str, str]]:
    names: Mapping[str, str] = view["names"]
    chosen: Sequence[str] = view.get("winners") or []
    return [{"bot_id": bot, "name": names.get(bot, bot)} for bot in chosen]
