"""``/api/v1/tournaments`` and ``/api/v1/ladders``: scheduling, progress, standings, ladder kinds."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tests.platform.conftest import Arena

ERROR_KEYS = {"code", "status", "message", "errors"}


@pytest.fixture
def trio(arena: Arena) -> list[dict]:
    return [
        arena.register("Low", "/first/low", ["nim", "party"]),
        arena.register("High", "/last/high", ["nim", "party"]),
        arena.register("Low too", "/first/low2", ["nim", "party"]),
    ]


def create(arena: Arena, **body) -> dict:
    answer = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    assert answer.status_code == 202, answer.get_json()
    assert answer.headers["Location"].endswith(f"/api/v1/tournaments/{answer.get_json()['id']}")
    return answer.get_json()


def test_creating_a_tournament_needs_the_organizer_token(arena: Arena, trio) -> None:
    body = {
        "name": "t",
        "game": "nim",
        "format": "round_robin",
        "bots": [b["id"] for b in trio],
        "seats_per_match": 2,
    }
    answer = arena.client.post("/api/v1/tournaments", json=body)
    assert answer.status_code == 401 and set(answer.get_json()) == ERROR_KEYS


def test_a_round_robin_queues_every_match_and_ends_with_standings(arena: Arena, trio) -> None:
    ids = [b["id"] for b in trio]
    created = create(
        arena,
        name="Party cup",
        game="party",
        format="round_robin",
        bots=ids,
        seats_per_match=2,
        games_per_pairing=1,
    )
    assert created["variant"] == "open" and created["games_per_pairing"] == 2
    assert created["games_per_pairing_requested"] == 1
    assert created["progress"] == {
        "done": 0,
        "total": 6,
        "finished": 0,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 6,
    }
    assert created["status"] == "queued"
    assert len(arena.queue.ids) == 6 == len(created["matches"])
    seats = Counter((bot, seat) for match in created["matches"] for seat, bot in enumerate(match["bots"]))
    assert set(seats.values()) == {2} and len(seats) == 6
    first = arena.get(f"/api/v1/matches/{arena.queue.ids[0]}")
    assert (first["tournament"], first["origin"]) == (created["id"], "tournament")

    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert done["status"] == "finished" and done["progress"]["done"] == done["progress"]["finished"] == 6
    # party/open: High picks 2 and wins each of its 4 matches; the Lows pick 0 and draw each other
    table = [
        (r["rank"], r["name"], r["points"], r["wins"], r["draws"], r["losses"]) for r in done["standings"]
    ]
    assert table == [(1, "High", 4.0, 4, 0, 0), (2, "Low", 1.0, 0, 2, 2), (2, "Low too", 1.0, 0, 2, 2)]
    high = next(r for r in done["standings"] if r["name"] == "High")
    assert high["score_sum"] == 8.0 and high["played"] == 4
    assert all(match["status"] == "finished" and match["result"]["places"] for match in done["matches"])
    assert "first place" in done["points"]
    listed = arena.get("/api/v1/tournaments")
    assert [t["id"] for t in listed] == [created["id"]] and listed[0]["match_count"] == 6


@pytest.mark.parametrize(("challenger", "beats"), [(1, True), (0, False)])
def test_a_gauntlet_shows_its_challengers_record_and_names_only_it_as_winner(
    arena: Arena, trio, challenger: int, beats: bool
) -> None:
    # party/open: High picks 2 and wins every match; the Lows pick 0 and draw each other
    order = [trio[challenger], *(bot for index, bot in enumerate(trio) if index != challenger)]
    created = create(
        arena, name="g", game="party", format="gauntlet", bots=[b["id"] for b in order], seats_per_match=2
    )
    assert created["challenger"]["played"] == 0 and created["winner"] is None
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    record = done["challenger"]
    assert record["bot_id"] == order[0]["id"] and record["played"] == 4
    assert [o["bot_id"] for o in record["opponents"]] == [order[1]["id"], order[2]["id"]]
    assert record["beat_the_field"] is beats
    if beats:
        assert (record["wins"], record["losses"], record["points"]) == (4, 0, 4.0)
        assert done["winner"] == order[0]["id"] and done["winners"] == [order[0]["id"]]
    else:
        assert [(o["wins"], o["draws"], o["losses"]) for o in record["opponents"]] == [(0, 0, 2), (0, 2, 0)]
        assert done["winner"] is None and done["winners"] == []
        assert done["standings"][0]["bot_id"] == trio[1]["id"], "the field's best is not the winner"
    page = arena.client.get(f"/tournaments/{created['id']}").get_data(as_text=True)
    assert "The challenger" in page and "data-challenger" in page
    assert ("The challenger beat the field" in page) is beats
    assert ("No winner: the challenger" in page) is not beats


def test_progress_counts_matches_as_they_end(arena: Arena, trio) -> None:
    created = create(
        arena, name="g", game="nim", format="gauntlet", bots=[b["id"] for b in trio], seats_per_match=2
    )
    assert created["progress"]["total"] == 4  # first bot against two others, 2 games each
    assert all(
        match["bots"][0] == trio[0]["id"] or match["bots"][1] == trio[0]["id"] for match in created["matches"]
    )
    from arena.worker.execution import execute

    execute(arena.runtime, arena.queue.ids[0])
    middle = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert middle["status"] == "running"
    assert middle["progress"] == {
        "done": 1,
        "total": 4,
        "finished": 1,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 3,
    }


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        ({"seats_per_match": 4}, {"seats_per_match": ["variant standard is played by 2, 3 seats, not 4"]}),
        ({"format": "ladder"}, {"format": ["Must be one of: round_robin, gauntlet, swiss, knockout."]}),
        (
            {"games_per_pairing": 0},
            {"games_per_pairing": ["Must be greater than or equal to 1 and less than or equal to 1000."]},
        ),
        ({"variant": "blitz"}, {"variant": ["game nim has no variant 'blitz' (variants: standard)"]}),
        ({"name": ""}, {"name": ["must not be blank"]}),
    ],
)
def test_invalid_tournaments_are_refused_with_field_messages(arena: Arena, trio, change, errors) -> None:
    body = {
        "name": "t",
        "game": "nim",
        "format": "round_robin",
        "bots": [b["id"] for b in trio],
        "seats_per_match": 2,
    }
    answer = arena.client.post("/api/v1/tournaments", json={**body, **change}, headers=arena.admin())
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == errors
    assert arena.queue.ids == []


def test_bots_must_be_distinct_enough_and_the_size_bounded(arena: Arena, trio) -> None:
    ids = [b["id"] for b in trio]
    body = {"name": "t", "game": "nim", "format": "round_robin", "seats_per_match": 3}
    answer = arena.client.post(
        "/api/v1/tournaments", json={**body, "bots": [ids[0], ids[0], ids[1]]}, headers=arena.admin()
    )
    assert answer.get_json()["errors"] == {"bots": ["each bot may enter a tournament once"]}
    answer = arena.client.post("/api/v1/tournaments", json={**body, "bots": ids[:2]}, headers=arena.admin())
    assert answer.get_json()["errors"] == {"bots": ["needs at least 3 bots"]}
    arena.runtime.settings = replace(arena.runtime.settings, max_tournament_matches=5)
    answer = arena.client.post(
        "/api/v1/tournaments", json={**body, "bots": ids, "seats_per_match": 2}, headers=arena.admin()
    )
    assert answer.get_json()["errors"] == {
        "games_per_pairing": ["this tournament would have 6 matches; the limit is 5"]
    }


def test_an_unknown_tournament_is_404(arena: Arena) -> None:
    answer = arena.client.get("/api/v1/tournaments/t-none")
    assert answer.status_code == 404 and set(answer.get_json()) == ERROR_KEYS


def test_an_unrated_team_ladder_shows_team_win_rate_and_mean_score(arena: Arena, trio) -> None:
    low, high, _ = trio
    arena.match(game="party", variant="coop", bots=[low["id"], high["id"]])  # 0 + 2 >= 2: won
    arena.match(game="party", variant="coop", bots=[low["id"]])  # 0 < 1: lost
    arena.run_queue()
    ladder = arena.get("/api/v1/ladders/party?variant=coop")
    assert (ladder["rated"], ladder["team"], ladder["ranked_by"]) == (
        False,
        True,
        "team_win_rate, mean_score",
    )
    rows = [
        (e["rank"], e["name"], e["rating"], e["team_win_rate"], e["mean_score"], e["games"])
        for e in ladder["entries"]
    ]
    assert rows == [(1, "High", None, 1.0, 2.0, 1), (2, "Low", None, 0.5, 0.0, 2)]


def test_a_rated_team_ladder_rates_only_won_games(arena: Arena, trio) -> None:
    low, high, low2 = trio
    arena.match(game="party", variant="crew", bots=[low["id"], low2["id"]])  # 0 + 0 < 2: lost, all equal
    arena.run_queue()
    entries = arena.get("/api/v1/ladders/party?variant=crew")["entries"]
    assert [(e["rating"], e["rated_games"], e["losses"], e["team_win_rate"]) for e in entries] == [
        (1500.0, 0, 1, 0.0)
    ] * 2
    arena.match(game="party", variant="crew", bots=[low["id"], high["id"]])  # won: High first
    arena.run_queue()
    entries = {e["name"]: e for e in arena.get("/api/v1/ladders/party?variant=crew")["entries"]}
    assert (entries["High"]["rating"], entries["Low"]["rating"], entries["Low too"]["rating"]) == (
        1520.0,
        1480.0,
        1500.0,
    )
    assert entries["High"]["team_win_rate"] == 1.0 and entries["Low"]["team_win_rate"] == 0.5


def test_ladder_errors(arena: Arena) -> None:
    assert arena.client.get("/api/v1/ladders/chess").status_code == 404
    answer = arena.client.get("/api/v1/ladders/party?variant=solo")
    assert answer.status_code == 422 and "variant" in answer.get_json()["errors"]
    assert arena.get("/api/v1/ladders/party")["variant"] == "open"


def test_a_tournament_of_a_game_no_longer_registered_still_shows(arena: Arena, trio, monkeypatch) -> None:
    from referee import registry

    created = create(
        arena, name="old", game="party", format="round_robin", bots=[b["id"] for b in trio], seats_per_match=2
    )
    arena.run_queue()
    monkeypatch.delitem(registry.EXTRA, "party")
    registry.get_game.cache_clear()
    shown = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert shown["status"] == "finished" and shown["standings"][0]["name"] == "High"
    assert arena.client.get("/api/v1/ladders/party").status_code == 404
    assert arena.get(f"/api/v1/bots/{trio[0]['id']}")["ratings"] == []  # party's rows are not shown


def test_cancel_makes_queued_matches_never_start_and_stops_a_running_one(arena: Arena, trio) -> None:
    from arena.worker.execution import RunOutcome, execute

    created = create(
        arena, name="c", game="nim", format="round_robin", bots=[b["id"] for b in trio], seats_per_match=2
    )
    url = f"/api/v1/tournaments/{created['id']}"
    first, second = arena.queue.ids[0], arena.queue.ids[1]
    execute(arena.runtime, first)
    assert arena.runtime.store.matches.start(second) is not None  # a worker has it in hand
    assert arena.client.delete(url).status_code == 401
    unknown = "/api/v1/tournaments/t-0000000000000000"
    assert arena.client.delete(unknown, headers=arena.admin()).status_code == 404
    assert arena.client.delete(url, headers=arena.admin()).status_code == 204
    view = arena.get(url)
    assert view["status"] == "cancelled" and view["cancelled_at"] and view["winners"] == []
    by_id = {match["id"]: match for match in view["matches"]}
    assert by_id[first]["status"] == "finished" and by_id[second]["status"] == "running"
    others = [match for match_id, match in by_id.items() if match_id not in (first, second)]
    assert others and all(match["status"] == "cancelled" for match in others)
    assert all(arena.runtime.store.matches.get(m["id"]).error == "tournament cancelled" for m in others)
    outcomes = arena.run_queue()  # the match in hand ends before its first move; the others never start
    assert outcomes[1] is RunOutcome.CANCELLED
    assert {outcomes[0], *outcomes[2:]} == {RunOutcome.ALREADY_ENDED}
    stopped = arena.runtime.store.matches.get(second)
    assert (stopped.status.value, stopped.result, stopped.error) == (
        "cancelled",
        None,
        "cancelled before it started",
    )
    shown = arena.get(url)
    progress = shown["progress"]
    assert (progress["finished"], progress["cancelled"], progress["running"], progress["queued"]) == (
        1,
        len(others) + 1,
        0,
        0,
    )
    assert sum(row["played"] for row in shown["standings"]) == 2, "only the finished match counts"
    assert arena.client.delete(url, headers=arena.admin()).status_code == 204  # again: nothing changes
    assert created["id"] not in arena.client.get("/").get_data(as_text=True), (
        "not in progress on the home page"
    )


class CancelOnMove:
    """An agent that cancels its match (through the API) while answering its ``on``-th move."""

    def __init__(self, inner, cancel) -> None:
        self.inner, self.cancel, self.asked = inner, cancel, 0

    def ask(self, request: dict, timeout_s: float):
        self.asked += 1
        if self.asked == 2:
            self.cancel(request["match_id"])
        return self.inner.ask(request, timeout_s)

    def notify(self, request: dict, timeout_s: float) -> None:
        self.inner.notify(request, timeout_s)


def test_a_running_match_cancelled_stops_at_its_next_move_stored_cancelled_unrated(
    arena: Arena, trio, monkeypatch
) -> None:
    from arena.worker import execution
    from referee.transport.agents import LocalAgent
    from tests.referee.test_runner import TakeOne

    monkeypatch.setattr(execution, "STOP_CHECK_EVERY_S", 0.0)  # look before every move

    def cancel(match_id: str) -> None:
        assert arena.client.delete(f"/api/v1/matches/{match_id}", headers=arena.admin()).status_code == 204

    arena.runtime.agent_for = lambda bot: CancelOnMove(LocalAgent(TakeOne()), cancel)
    match = arena.match(game="nim", bots=[trio[0]["id"], trio[1]["id"]], seed=5)
    assert execution.execute(arena.runtime, match["id"]) is execution.RunOutcome.CANCELLED
    shown = arena.get(f"/api/v1/matches/{match['id']}")
    # seat 0 cancels while answering its second move (the match's third): that move is played,
    # the runner stops before the fourth
    assert (shown["status"], shown["moves"], shown["result"]) == ("cancelled", 3, None)
    replay = arena.client.get(f"/api/v1/matches/{match['id']}/replay").get_json()
    assert len(replay["moves"]) == 3 and replay["result"]["reason"] == "stopped"
    assert arena.client.get("/api/v1/ladders/nim").get_json()["total"] == 0, "counted for nobody"
    assert arena.client.delete(f"/api/v1/matches/{match['id']}", headers=arena.admin()).status_code == 204


def test_a_match_is_cancelled_by_the_organizer_or_its_challenger_and_never_starts(arena: Arena, trio) -> None:
    from arena.worker.execution import RunOutcome, execute

    organizers = arena.match(game="nim", bots=[trio[0]["id"], trio[1]["id"]])
    url = f"/api/v1/matches/{organizers['id']}"
    owner = {"Authorization": f"Bearer {trio[0]['token']}"}
    assert arena.client.delete(url).status_code == 401
    assert arena.client.delete(url, headers=owner).status_code == 401, "not a challenge: the organizer's"
    assert arena.client.delete(url, headers=arena.admin()).status_code == 204
    assert arena.get(url)["status"] == "cancelled"
    assert execute(arena.runtime, organizers["id"]) is RunOutcome.ALREADY_ENDED
    answer = arena.client.post(
        "/api/v1/matches", json={"game": "nim", "bots": [trio[0]["id"], trio[2]["id"]]}, headers=owner
    )
    challenge = answer.get_json()
    other = {"Authorization": f"Bearer {trio[1]['token']}"}
    assert arena.client.delete(f"/api/v1/matches/{challenge['id']}", headers=other).status_code == 401
    assert arena.client.delete(f"/api/v1/matches/{challenge['id']}", headers=owner).status_code == 204
    assert arena.runtime.store.matches.get(challenge["id"]).error == "cancelled by the challenger"
    finished = arena.match(game="nim", bots=[trio[0]["id"], trio[1]["id"]])
    execute(arena.runtime, finished["id"])
    conflict = arena.client.delete(f"/api/v1/matches/{finished['id']}", headers=arena.admin())
    assert conflict.status_code == 409 and "finished" in conflict.get_json()["message"]
    assert arena.client.delete("/api/v1/matches/m-0000000000000000", headers=arena.admin()).status_code == 404


def quartet(arena: Arena) -> list[str]:
    names = [("Low", "/first/low"), ("High", "/last/high"), ("Low 2", "/first/low2")]
    names.append(("Low 3", "/first/low3"))
    return [arena.register(name, path, ["nim", "party"])["id"] for name, path in names]


def test_a_swiss_makes_each_round_when_the_last_has_ended(arena: Arena) -> None:
    ids = quartet(arena)
    created = create(arena, name="s", game="party", format="swiss", bots=ids, seats_per_match=2)
    assert created["rounds"] == 2 and len(created["rounds_made"]) == 1
    assert len(created["matches"]) == 2 and created["status"] == "queued"
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert len(done["rounds_made"]) == 2 and len(done["matches"]) == 4
    assert done["status"] == "finished"
    pairs = [frozenset(match["bots"]) for match in done["matches"]]
    assert len(set(pairs)) == 4, "no pair met twice"
    assert done["standings"][0]["name"] == "High" and done["standings"][0]["points"] == 2.0


def test_a_round_the_queue_refuses_stays_queued_for_the_sweeper_and_plays_later(arena: Arena) -> None:
    """Aborting a round's matches would decide it without a game and leave nothing to end and make
    the next round: they wait, queued, for the sweeper to queue them again; the request answers 503."""
    ids = quartet(arena)
    take = arena.queue.enqueue

    def refuse(match_id: str) -> None:
        raise ConnectionError("broker down")

    arena.queue.enqueue = refuse  # type: ignore[method-assign]
    body = {"name": "s", "game": "party", "format": "swiss", "bots": ids, "seats_per_match": 2}
    answer = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    assert answer.status_code == 503, answer.get_json()
    (listed,) = arena.get("/api/v1/tournaments")
    made = arena.get(f"/api/v1/tournaments/{listed['id']}")
    assert [match["status"] for match in made["matches"]] == ["queued", "queued"]
    arena.queue.enqueue = take  # type: ignore[method-assign]
    for match in made["matches"]:  # what the sweeper does once the queue is back
        arena.queue.enqueue(match["id"])
    arena.run_queue()
    assert arena.get(f"/api/v1/tournaments/{listed['id']}")["status"] == "finished"


def test_a_knockout_plays_down_to_the_final(arena: Arena) -> None:
    ids = quartet(arena)
    created = create(arena, name="k", game="party", format="knockout", bots=ids, seats_per_match=2)
    assert created["rounds"] == 2 and [len(r["matches"]) for r in created["rounds_made"]] == [2]
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert [len(r["matches"]) for r in done["rounds_made"]] == [2, 1]
    final = next(m for m in done["matches"] if m["id"] == done["rounds_made"][1]["matches"][0])
    assert ids[1] in final["bots"], "High wins its semi-final"


def test_a_knockout_replaying_ties_replays_a_drawn_pod_twice_then_goes_by_seed(arena: Arena) -> None:
    # seeds in entry order (no ratings yet): Low-Low 3 and High-Low 2; the Lows both pick 0, a draw
    ids = quartet(arena)
    created = create(
        arena, name="k", game="party", format="knockout", bots=ids, seats_per_match=2, pod_ties="replay"
    )
    assert created["pod_ties"] == "replay"
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    semi, other = done["rounds_made"][0]["matches"]
    replays = done["rounds_made"][0]["replays"][semi]
    assert len(replays) == 2 and other not in done["rounds_made"][0]["replays"]
    by_id = {match["id"]: match for match in done["matches"]}
    assert [by_id[m]["bots"] for m in (semi, *replays)] == [[ids[0], ids[3]]] * 3, "same bots, same seats"
    assert [by_id[m]["result"]["places"] for m in (semi, *replays)] == [[1, 1]] * 3
    assert len({by_id[m]["seed"] for m in (semi, *replays)}) == 3, "each replay has a seed of its own"
    assert {m["id"]: m["replay_of"] for m in done["matches"]} == {
        semi: None,
        other: None,
        replays[0]: semi,
        replays[1]: semi,
        done["rounds_made"][1]["matches"][0]: None,
    }
    assert {by_id[m]["round"] for m in replays} == {1}
    pod = done["bracket"]["rounds"][0]["pods"][0]
    assert (pod["match"], pod["replays"], pod["decided_by"], pod["advanced"]) == (
        semi,
        replays,
        replays[1],
        [ids[0]],
    ), "tied after two replays: the better seed goes on"
    assert done["status"] == "finished" and done["winner"] == ids[1]
    assert done["progress"]["total"] == 5


def test_a_knockout_leaves_ties_to_the_seed_by_default(arena: Arena) -> None:
    ids = quartet(arena)
    created = create(arena, name="k", game="party", format="knockout", bots=ids, seats_per_match=2)
    assert created["pod_ties"] == "seed"
    arena.run_queue()
    done = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert len(done["matches"]) == 3 and all(m["replay_of"] is None for m in done["matches"])
    assert done["bracket"]["rounds"][0]["pods"][0]["advanced"] == [ids[0]]
    assert all(not r["replays"] for r in done["rounds_made"])
    swiss = create(arena, name="s", game="party", format="swiss", bots=ids, seats_per_match=2)
    assert swiss["pod_ties"] is None


def test_the_next_round_is_made_once_when_two_finishes_race(arena: Arena) -> None:
    from arena.tournaments import progress

    ids = quartet(arena)
    created = create(arena, name="r", game="party", format="swiss", bots=ids, seats_per_match=2, rounds=3)
    for match_id in created["rounds_made"][0]["matches"]:
        arena.runtime.store.matches.abort(match_id, "test")
    made = [progress.advance(arena.runtime, created["id"]), progress.advance(arena.runtime, created["id"])]
    assert made == [True, False]
    assert len(arena.runtime.store.tournaments.rounds(created["id"])) == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "knockout", "bots": 3, "seats_per_match": 4}, "bots"),
        ({"format": "knockout", "seats_per_match": 2, "advance": 2}, "advance"),
        ({"format": "swiss", "rounds": 0}, "rounds"),
        ({"format": "swiss", "rounds": 65}, "rounds"),
    ],
)
def test_bad_swiss_and_knockout_requests_are_422(arena: Arena, change: dict, field: str) -> None:
    ids = quartet(arena)
    body = {"name": "x", "game": "party", "format": "swiss", "bots": ids, "seats_per_match": 2}
    body.update(change)
    if isinstance(body["bots"], int):
        body["bots"] = ids[: body["bots"]]
    answer = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    assert answer.status_code == 422, answer.get_json()
    assert field in str(answer.get_json()["errors"])


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        (
            {"format": "knockout", "bots": 5, "seats_per_match": 4, "advance": 2},
            {"bots": ["a knockout of pods of 4 sending 2 on needs a field of 4, 6, 8, 10, ... bots"]},
        ),
        (
            {"format": "knockout", "bots": 4, "seats_per_match": 2, "advance": 2},
            {"advance": ["must be at least 1 and less than seats_per_match (2)"]},
        ),
        (
            {"format": "swiss", "bots": 4, "rounds": 4},
            {"rounds": ["a swiss of 4 bots in pods of 2 can pair at most 3 rounds without a rematch"]},
        ),
        ({"format": "round_robin", "rounds": 2}, {"rounds": ["swiss only; a round_robin does not take it"]}),
        ({"format": "swiss", "advance": 1}, {"advance": ["knockout only; a swiss does not take it"]}),
        ({"format": "knockout", "pod_ties": "coin"}, {"pod_ties": ["Must be one of: seed, replay."]}),
        (
            {"format": "round_robin", "pod_ties": "replay"},
            {"pod_ties": ["knockout only; a round_robin does not take it"]},
        ),
        ({"format": "knockout", "bots": "twice"}, {"bots": ["each bot may enter a tournament once"]}),
        (
            {"format": "knockout", "bots": "stranger"},
            {"bots": {"4": ["bot {stranger} (Vulkan only) does not play party"]}},
        ),
    ],
)
def test_bad_fields_are_422_naming_the_field_and_what_it_can_be(
    arena: Arena, change: dict, errors: dict
) -> None:
    ids = quartet(arena)
    body = {"name": "x", "game": "party", "format": "swiss", "bots": ids, "seats_per_match": 2, **change}
    if body["bots"] == "twice":
        body["bots"] = [*ids, ids[0]]
    elif body["bots"] == "stranger":
        stranger = arena.register("Vulkan only", "/first/vulkan", ["vulkan"])["id"]
        body["bots"] = [*ids, stranger]
        errors = {"bots": {"4": [errors["bots"]["4"][0].replace("{stranger}", repr(stranger))]}}
    elif isinstance(body["bots"], int):
        extra = [
            arena.register(f"Extra {n}", f"/first/extra{n}", ["party"])["id"] for n in range(body["bots"] - 4)
        ]
        body["bots"] = [*ids, *extra][: body["bots"]]
    answer = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["errors"] == errors
    assert arena.queue.ids == []
