"""Organizers, scheduled tournaments, entry, check-in and CSV standings, through the API."""

from __future__ import annotations

import csv
import io
import threading
from datetime import UTC, datetime

import pytest

from arena.tournaments import scheduled
from tests.platform.conftest import Arena
from tests.platform.manual_clock import ManualClock

NOW = 1_900_000_000.0
START = NOW + 3600


def at(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


@pytest.fixture
def clocked(arena: Arena) -> Arena:
    arena.runtime.clock = ManualClock(NOW)
    return arena


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def organizer(arena: Arena, name: str) -> dict:
    made = arena.client.post("/api/v1/organizers", json={"name": name}, headers=arena.admin())
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def schedule(arena: Arena, token: str, **body) -> dict:
    request = {
        "name": "Saturday open",
        "game": "party",
        "format": "round_robin",
        "seats_per_match": 2,
        "games_per_pairing": 2,
        "starts_at": at(START),
        "entry": "open",
        **body,
    }
    answer = arena.client.post("/api/v1/tournaments", json=request, headers=bearer(token))
    assert answer.status_code == 202, answer.get_json()
    return answer.get_json()


def enter(arena: Arena, tournament: str, bot: dict, token: str | None = None):
    return arena.client.post(
        f"/api/v1/tournaments/{tournament}/entries",
        json={"bot": bot["id"]},
        headers=bearer(token or bot["token"]),
    )


def test_organizers_are_made_listed_and_revoked_by_the_admin_only(arena: Arena) -> None:
    club = organizer(arena, "Chess club")
    assert club["id"].startswith("o-") and club["name"] == "Chess club" and len(club["token"]) > 20
    assert arena.client.post("/api/v1/organizers", json={"name": "x"}).status_code == 401
    assert arena.client.get("/api/v1/organizers", headers=bearer(club["token"])).status_code == 401
    listed = arena.client.get("/api/v1/organizers", headers=arena.admin()).get_json()
    assert [(o["id"], o["name"]) for o in listed] == [(club["id"], "Chess club")]
    assert "token" not in listed[0] and "token_hash" not in listed[0]
    stored = arena.runtime.store.organizers.get(club["id"])
    assert stored is not None and club["token"] not in stored.token_hash

    made = schedule(arena, club["token"])
    assert made["organizer"] == {"id": club["id"], "name": "Chess club"} and made["status"] == "scheduled"
    assert arena.client.delete(f"/api/v1/organizers/{club['id']}", headers=arena.admin()).status_code == 204
    refused = arena.client.post("/api/v1/tournaments", json={"name": "t"}, headers=bearer(club["token"]))
    assert refused.status_code == 401, refused.get_json()  # a revoked token, before the body is read
    kept = arena.get(f"/api/v1/tournaments/{made['id']}")
    assert kept["organizer"]["name"] == "Chess club"
    edited = arena.client.patch(
        f"/api/v1/tournaments/{made['id']}", json={"name": "Club open"}, headers=arena.admin()
    )
    assert edited.status_code == 200 and edited.get_json()["name"] == "Club open"


def test_an_organizer_manages_its_own_tournaments_only(arena: Arena) -> None:
    club, school = organizer(arena, "Club"), organizer(arena, "School")
    made = schedule(arena, club["token"])
    url = f"/api/v1/tournaments/{made['id']}"
    for token in (school["token"], "nonsense"):
        refused = arena.client.patch(url, json={"name": "mine"}, headers=bearer(token))
        assert refused.status_code == 401
        assert "organizer 'Club'" in refused.get_json()["message"]
        assert arena.client.delete(url, headers=bearer(token)).status_code == 401
    assert (
        arena.client.patch(url, json={"name": "Club cup"}, headers=bearer(club["token"])).status_code == 200
    )
    assert arena.client.delete(url, headers=bearer(club["token"])).status_code == 204
    assert arena.get(url)["status"] == "cancelled"


def test_a_tournament_without_a_start_time_starts_at_once_with_its_bots(arena: Arena) -> None:
    ids = [arena.register(n, f"/first/{n}", ["party"])["id"] for n in ("a", "b")]
    body = {"name": "now", "game": "party", "format": "round_robin", "bots": ids, "seats_per_match": 2}
    made = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin()).get_json()
    assert made["status"] == "queued" and made["organizer"] is None and made["entry"] == "invited"
    assert [e["bot"] for e in made["entries"]] == ids and len(arena.queue.ids) == 2


def test_open_entry_by_bots_own_tokens_then_a_start_with_check_in(clocked: Arena) -> None:
    arena = clocked
    club = organizer(arena, "Club")
    high = arena.register("High", "/last/high", ["party"])
    low = arena.register("Low", "/first/low", ["party"])
    gone = arena.register("Gone", "/first/gone", ["party"])
    other_game = arena.register("Nimmer", "/first/nimmer", ["nim"])
    made = schedule(arena, club["token"], max_entrants=3)
    tid = made["id"]
    assert made["starts_at"].startswith(at(START)[:19]) and made["min_entrants"] == 2

    assert enter(arena, tid, high).status_code == 201
    assert enter(arena, tid, low, token=high["token"]).status_code == 401  # another bot's token
    twice = enter(arena, tid, high)
    assert twice.status_code == 422 and "bot" in twice.get_json()["errors"]
    wrong = enter(arena, tid, other_game)
    assert wrong.status_code == 422 and "does not play party" in wrong.get_json()["errors"]["bot"][0]
    assert enter(arena, tid, low).status_code == 201
    assert enter(arena, tid, gone).status_code == 201
    late = arena.register("Late", "/first/late", ["party"])
    assert enter(arena, tid, late).status_code == 409  # full
    out = arena.client.delete(
        f"/api/v1/tournaments/{tid}/entries/{gone['id']}", headers=bearer(gone["token"])
    )
    assert out.status_code == 204
    assert enter(arena, tid, gone).status_code == 201  # back in: a withdrawn bot may enter again

    arena.bots.secrets["/first/gone"] = "not the secret it registered with"  # it no longer answers right
    assert scheduled.start_due(arena.runtime) == []  # not yet
    arena.runtime.clock.move_to(START)
    assert scheduled.start_due(arena.runtime) == [tid]
    assert enter(arena, tid, late).status_code == 409  # started

    started = arena.get(f"/api/v1/tournaments/{tid}")
    assert started["status"] == "queued" and sorted(started["bots"]) == sorted([high["id"], low["id"]])
    assert arena.get(f"/api/v1/tournaments/{tid}/entries") == started["entries"]
    by_bot = {e["bot"]: e for e in started["entries"]}
    assert by_bot[gone["id"]]["status"] == "withdrawn"
    assert by_bot[gone["id"]]["reason"] == "did not answer the check-in ping: answered 401"
    assert gone["id"] not in {b for m in started["matches"] for b in m["bots"]}
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{tid}")
    assert done["status"] == "finished"

    answer = arena.client.get(f"/api/v1/tournaments/{tid}/standings.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert [
        (int(r["rank"]), r["bot"], r["name"], float(r["points"]), int(r["games"]), int(r["wins"]))
        for r in rows
    ] == [(s["rank"], s["bot_id"], s["name"], s["points"], s["played"], s["wins"]) for s in done["standings"]]
    assert list(rows[0]) == [
        "rank",
        "bot",
        "name",
        "points",
        "head_to_head",
        "score_sum",
        "games",
        "wins",
        "draws",
        "losses",
    ]


def test_only_the_organizer_adds_to_an_invited_field_and_edits_until_the_start(clocked: Arena) -> None:
    arena = clocked
    a, b, c = (arena.register(n, f"/first/{n}", ["party"]) for n in ("a", "b", "c"))
    made = schedule(arena, "organizer-secret-token", entry="invited", bots=[a["id"], b["id"]])
    tid = made["id"]
    assert [e["bot"] for e in made["entries"]] == [a["id"], b["id"]]
    assert enter(arena, tid, c).status_code == 409  # not open: the bot's owner cannot
    assert enter(arena, tid, c, token="organizer-secret-token").status_code == 201
    moved = arena.client.patch(
        f"/api/v1/tournaments/{tid}",
        json={"starts_at": at(START + 60), "min_entrants": 3},
        headers=arena.admin(),
    )
    assert moved.status_code == 200 and moved.get_json()["min_entrants"] == 3
    past = arena.client.patch(
        f"/api/v1/tournaments/{tid}", json={"starts_at": at(NOW - 1)}, headers=arena.admin()
    )
    assert past.status_code == 422 and "starts_at" in past.get_json()["errors"]
    arena.runtime.clock.move_to(START)
    assert scheduled.start_due(arena.runtime) == []  # it was moved a minute on
    arena.runtime.clock.move_to(START + 60)
    assert scheduled.start_due(arena.runtime) == [tid]
    late = arena.client.patch(f"/api/v1/tournaments/{tid}", json={"name": "x"}, headers=arena.admin())
    assert late.status_code == 409
    assert len(arena.get(f"/api/v1/tournaments/{tid}")["bots"]) == 3


def test_a_start_below_min_entrants_cancels_with_the_reason(clocked: Arena) -> None:
    arena = clocked
    a, b = arena.register("a", "/first/a", ["party"]), arena.register("b", "/first/b", ["party"])
    made = schedule(arena, "organizer-secret-token", min_entrants=2)
    enter(arena, made["id"], a)
    enter(arena, made["id"], b)
    arena.bots.secrets["/first/b"] = "changed"
    arena.runtime.clock.move_to(START)
    scheduled.start_due(arena.runtime)
    shown = arena.get(f"/api/v1/tournaments/{made['id']}")
    assert shown["status"] == "cancelled" and shown["matches"] == [] and arena.queue.ids == []
    assert shown["cancel_reason"] == "1 entrant at the start (after the check-in); it needs at least 2"


def test_two_schedulers_racing_start_a_tournament_once(clocked: Arena) -> None:
    arena = clocked
    bots = [arena.register(n, f"/first/{n}", ["party"]) for n in ("a", "b", "c")]
    made = schedule(arena, "organizer-secret-token")
    for bot in bots:
        enter(arena, made["id"], bot)
    arena.runtime.clock.move_to(START)
    barrier = threading.Barrier(2)
    started: list[list[str]] = []

    def scheduler() -> None:
        barrier.wait()
        started.append(scheduled.start_due(arena.runtime))

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(started) == [[], [made["id"]]]
    shown = arena.get(f"/api/v1/tournaments/{made['id']}")
    assert shown["progress"]["total"] == len(arena.queue.ids) == 6 == len(set(arena.queue.ids))
    assert scheduled.start_due(arena.runtime) == []


def test_a_ladder_final_takes_the_ladders_best(clocked: Arena) -> None:
    arena = clocked
    players = [
        arena.register(n, f"/{p}/{n}", ["party"]) for n, p in (("w", "last"), ("x", "first"), ("y", "first"))
    ]
    season = {"name": "season", "game": "party", "format": "round_robin", "seats_per_match": 2}
    body = {**season, "bots": [p["id"] for p in players]}
    assert arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin()).status_code == 202
    arena.run_queue()
    ladder = arena.get("/api/v1/ladders/party")["entries"]
    made = schedule(arena, "organizer-secret-token", entry="ladder", top=2, format="knockout")
    assert made["max_entrants"] == 2 and made["entries"] == []
    refused = enter(arena, made["id"], players[2])
    assert refused.status_code == 409
    arena.runtime.clock.move_to(START)
    scheduled.start_due(arena.runtime)
    final = arena.get(f"/api/v1/tournaments/{made['id']}")
    assert final["bots"] == [row["bot_id"] for row in ladder[:2]] == final["seeds"]
    assert [e["bot"] for e in final["entries"]] == final["bots"]

    answer = arena.client.get("/api/v1/ladders/party/standings.csv?variant=open")
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert [(r["bot"], int(r["rank"]), int(r["games"])) for r in rows] == [
        (row["bot_id"], row["rank"], row["games"]) for row in ladder
    ]
    assert list(rows[0])[3:7] == ["conservative", "mu", "sigma", "rating"]


def test_a_knockout_field_it_cannot_hold_leaves_the_lowest_seeds_out(clocked: Arena) -> None:
    arena = clocked
    bots = [arena.register(n, f"/first/{n}", ["party"]) for n in "abcde"]
    made = schedule(arena, "organizer-secret-token", format="knockout", seats_per_match=4)
    for bot in bots:
        assert enter(arena, made["id"], bot).status_code == 201
    arena.runtime.clock.move_to(START)
    scheduled.start_due(arena.runtime)
    shown = arena.get(f"/api/v1/tournaments/{made['id']}")
    assert shown["status"] == "queued" and len(shown["bots"]) == 4
    out = [e for e in shown["entries"] if e["status"] == "withdrawn"]
    assert (
        len(out) == 1 and out[0]["bot"] == bots[-1]["id"]
    )  # unrated alike: the last to enter is the lowest seed
    assert out[0]["reason"].startswith("left out as a lowest seed: a knockout of pods of 4 sending 2 on")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"entry": "open", "starts_at": None}, "starts_at"),
        ({"entry": "ladder"}, "top"),
        ({"entry": "invited"}, "bots"),
        ({"min_entrants": 1}, "min_entrants"),
        ({"min_entrants": 5, "max_entrants": 4}, "max_entrants"),
        ({"top": 3}, "top"),
        ({"entry": "weekly"}, "entry"),
        ({"starts_at": "2030-01-01T10:00:00"}, "starts_at"),  # no zone
    ],
)
def test_bad_schedules_are_refused_by_field(clocked: Arena, body: dict, field: str) -> None:
    request = {
        "name": "t",
        "game": "party",
        "format": "round_robin",
        "seats_per_match": 2,
        "starts_at": at(START),
        "entry": "open",
        **body,
    }
    request = {k: v for k, v in request.items() if v is not None}
    answer = clocked.client.post("/api/v1/tournaments", json=request, headers=clocked.admin())
    assert answer.status_code == 422 and field in answer.get_json()["errors"], answer.get_json()
