"""``/api/v1/ladders/<game>/<variant>/matchmaking`` and the scheduler's tick: on, matches made within
the rate and the cap, played and rated; off, nothing more made and the queued ones cancelled."""

from __future__ import annotations

import pytest

from arena.ladders import matchmaking
from arena.worker.execution import execute
from bots.sdk import new_secret
from tests.platform.conftest import Arena
from tests.platform.manual_clock import ManualClock

URL = "/api/v1/ladders/party/open/matchmaking"


@pytest.fixture(autouse=True)
def clock(arena: Arena) -> ManualClock:
    """The runtime's clock, which each test moves to the moments it ticks at."""
    arena.runtime.clock = ManualClock(start=0.0)
    return arena.runtime.clock


def tick_at(arena: Arena, moment: float) -> list[str]:
    """One tick of the party ladder at ``moment`` of the runtime's clock."""
    clock = arena.runtime.clock
    assert isinstance(clock, ManualClock)
    clock.move_to(moment)
    return matchmaking.tick(arena.runtime, "party", "open")


@pytest.fixture
def field(arena: Arena) -> list[str]:
    paths = [
        ("Low", "/first/low"),
        ("High", "/last/high"),
        ("Low 2", "/first/low2"),
        ("Low 3", "/first/low3"),
    ]
    return [arena.register(name, path, ["party"])["id"] for name, path in paths]


def put(arena: Arena, **body: object) -> dict:
    answer = arena.client.put(URL, json=body, headers=arena.admin())
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_matchmaking_is_off_until_the_organizer_turns_it_on(arena: Arena, field: list[str]) -> None:
    shown = arena.get(URL)
    assert shown["enabled"] is False and shown["matches_per_minute"] is None and shown["bots"] == 4
    assert tick_at(arena, 1000.0) == []
    assert arena.client.put(URL, json={"matches_per_minute": 6}).status_code == 401
    assert arena.client.delete(URL).status_code == 401
    on = put(arena, matches_per_minute=6)
    assert on["enabled"] is True and on["max_in_flight"] == 6 and on["seats"] == 2
    assert arena.get(URL)["started_at"] == on["started_at"]


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({}, {"matches_per_minute": ["Missing data for required field."]}),
        (
            {"matches_per_minute": 0},
            {"matches_per_minute": ["Must be greater than or equal to 1 and less than or equal to 600."]},
        ),
        ({"matches_per_minute": 1.5}, {"matches_per_minute": ["Not a valid integer."]}),
        (
            {"matches_per_minute": 6, "max_in_flight": 0},
            {"max_in_flight": ["Must be greater than or equal to 1 and less than or equal to 1000."]},
        ),
        ({"matches_per_minute": 6, "rate": 6}, {"rate": ["Unknown field."]}),
        (
            {"matches_per_minute": 6, "seats": 7},
            {"seats": ["variant open is played by 2, 3, 4 seats, not 7"]},
        ),
        (
            {"matches_per_minute": 6, "options": {"x": 1}},
            {"options": ["unknown option(s) for variant open: x"]},
        ),
    ],
)
def test_bad_settings_are_422_naming_the_field(arena: Arena, body: dict, errors: dict) -> None:
    answer = arena.client.put(URL, json=body, headers=arena.admin())
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == errors


def test_unknown_games_are_404_and_unknown_variants_422(arena: Arena) -> None:
    assert arena.client.get("/api/v1/ladders/chess/open/matchmaking").status_code == 404
    answer = arena.client.put(
        "/api/v1/ladders/party/blitz/matchmaking", json={"matches_per_minute": 1}, headers=arena.admin()
    )
    assert answer.status_code == 422 and "variant" in answer.get_json()["errors"]


def test_ticks_make_rated_matches_within_the_rate_and_the_cap(arena: Arena, field: list[str]) -> None:
    runtime = arena.runtime
    put(arena, matches_per_minute=3, max_in_flight=2)
    made = tick_at(arena, 1000.0)
    assert len(made) == 1, "a tick's share of 3 a minute, every 10 s, is one match"
    assert arena.queue.ids == made
    assert tick_at(arena, 1001.0) == [], "same period: a second tick does nothing"
    second = tick_at(arena, 1010.0)
    assert len(second) == 1 and not set(runtime.store.matches.get(made[0]).bots) & set(
        runtime.store.matches.get(second[0]).bots
    ), "busy bots are not paired again"
    assert tick_at(arena, 1020.0) == [], "two in flight: the cap"
    assert arena.get(URL)["in_flight"] == 2
    assert [outcome.value for outcome in arena.run_queue()] == ["finished", "finished"]
    third = tick_at(arena, 1030.0)
    assert len(third) == 1
    assert tick_at(arena, 1040.0) == [], "three made within 60 s: the rate"
    arena.run_queue()
    assert len(tick_at(arena, 1061.0)) == 1, "the first has left the window"
    arena.run_queue()
    ladder = arena.get("/api/v1/ladders/party?variant=open")["entries"]
    assert sum(row["games"] for row in ladder) == 8 and all(row["sigma"] < 25 / 3 for row in ladder)
    for match_id in [*made, *second, *third]:
        match = arena.get(f"/api/v1/matches/{match_id}")
        assert match["status"] == "finished" and match["rated"] is True
        assert match["origin"] == "matchmaking"


def test_nobody_meets_the_same_opponent_twice_in_a_row(arena: Arena, field: list[str]) -> None:
    put(arena, matches_per_minute=600, max_in_flight=2)
    previous: dict[str, set[str]] = {}
    for step in range(6):
        made = tick_at(arena, 2000.0 + 10 * step)
        assert len(made) == 2
        arena.run_queue()
        for match_id in made:
            a, b = arena.runtime.store.matches.get(match_id).bots
            assert b not in previous.get(a, set())
            previous[a], previous[b] = {b}, {a}


def test_stopping_makes_nothing_more_and_cancels_what_is_queued(
    arena: Arena, field: list[str], clock: ManualClock
) -> None:
    runtime = arena.runtime
    put(arena, matches_per_minute=600, max_in_flight=2)
    first, second = tick_at(arena, 3000.0)
    runtime.store.matches.start(first)  # a worker took it
    answer = arena.client.delete(URL, headers=arena.admin())
    assert answer.status_code == 200
    stopped = answer.get_json()
    assert stopped["enabled"] is False and stopped["cancelled"] == [second]
    assert stopped["in_flight"] == 1 and stopped["running"] == 1
    assert arena.get(f"/api/v1/matches/{second}")["error"] == matchmaking.STOPPED
    assert tick_at(arena, 3010.0) == []
    clock.move_to(3020.0)
    assert matchmaking.tick_all(runtime) == {}
    assert execute(runtime, second).value == "already_ended", "its queued task does nothing"
    runtime.store.matches.abort(first, "the running match ends")
    assert arena.get(URL)["in_flight"] == 0
    assert arena.client.delete(URL, headers=arena.admin()).get_json()["cancelled"] == []


def test_a_tick_that_read_the_settings_before_stop_stores_nothing(arena: Arena, field: list[str]) -> None:
    runtime = arena.runtime
    put(arena, matches_per_minute=600)
    config = runtime.store.matchmaking.config("party", "open")
    matchmaking.stop(runtime, "party", "open")
    spec = matchmaking.template(config).reseated(tuple(field[:2]), 1)
    from arena.matches.match_requests import new_match

    record = new_match(spec, runtime.store.bots.get_many(field), rated=True)
    assert not runtime.store.matchmaking.add_matches("party", "open", config, [(record, spec)], 1.0)
    assert runtime.store.matches.get(record.id) is None


def test_two_schedulers_in_one_period_make_one_ticks_matches(
    arena: Arena, field: list[str], clock: ManualClock
) -> None:
    put(arena, matches_per_minute=600, max_in_flight=10)
    clock.move_to(4000.0)
    first = matchmaking.tick_all(arena.runtime)
    clock.advance(0.5)
    second = matchmaking.tick_all(arena.runtime)
    assert [len(ids) for found in (first, second) for ids in found.values()] == [2, 0]


def test_the_ladder_page_says_when_matchmaking_is_on(arena: Arena, field: list[str]) -> None:
    page = "/games/party/ladder?variant=open"
    assert "Matchmaking on" not in arena.client.get(page).get_data(as_text=True)
    put(arena, matches_per_minute=6)
    assert "Matchmaking on: 6 matches a minute" in arena.client.get(page).get_data(as_text=True)
    assert "Matchmaking on" not in arena.client.get("/games/party/ladder?variant=crew").get_data(as_text=True)


def test_a_tick_waits_while_another_holds_the_ladders_lock(arena: Arena, field: list[str]) -> None:
    put(arena, matches_per_minute=600)
    store = arena.runtime.store
    assert store.matchmaking.take_lock("party", "open", "another tick", 30)
    assert tick_at(arena, 5000.0) == []
    store.matchmaking.release_lock("party", "open", "another tick")
    assert len(tick_at(arena, 5010.0)) == 2


def test_matches_the_queue_refuses_end_aborted_and_free_their_bots(arena: Arena, field: list[str]) -> None:
    put(arena, matches_per_minute=600)

    def refuse(match_id: str) -> None:
        raise ConnectionError("broker down")

    arena.queue.enqueue = refuse  # type: ignore[method-assign]
    assert tick_at(arena, 6000.0) == []
    assert arena.get(URL)["in_flight"] == 0
    assert arena.runtime.store.matchmaking.made_since("party", "open", 5990.0) == 2, "they count for the rate"
    statuses = arena.get("/api/v1/matches?game=party")
    assert [match["error"] for match in statuses] == ["could not be queued: ConnectionError"] * 2


def test_a_bot_that_keeps_forfeiting_rests_until_its_owner_changes_it(arena: Arena, field: list[str]) -> None:
    broken = arena.register("Broken", "/first/broken", ["party"])
    arena.bots.secrets["/first/broken"] = new_secret()  # restarted with another secret: every move a 401
    put(arena, matches_per_minute=600, max_in_flight=1, max_faults=1)

    def tick_and_play(now: float) -> tuple[str, ...]:
        made = tick_at(arena, now)
        assert len(made) == 1
        arena.run_queue()
        return arena.runtime.store.matches.get(made[0]).bots

    now = 3000.0
    seated = 0
    while not arena.get(URL)["resting"]:
        seated += broken["id"] in tick_and_play(now)
        now += 10
        assert now < 3200, "a bot forfeiting every match is rested within 20 ticks"
    assert seated == matchmaking.REST_AFTER_FORFEITS and arena.get(URL)["resting"] == [broken["id"]]
    for _ in range(4):  # resting: the scheduler leaves it out
        assert broken["id"] not in tick_and_play(now)
        now += 10
    # the owner gives it the secret it now runs with (pinged): it plays again, and plays to the end
    answer = arena.client.post(
        f"/api/v1/bots/{broken['id']}/secret",
        json={"secret": arena.bots.secrets["/first/broken"]},
        headers={"Authorization": f"Bearer {broken['token']}"},
    )
    assert answer.status_code == 200 and arena.get(URL)["resting"] == []
    while broken["id"] not in tick_and_play(now):
        now += 10
        assert now < 3600, "a bot back from rest is seated again"
    row = arena.runtime.store.ladders.rows_of("party", "open", [broken["id"]])[broken["id"]]
    assert row["forfeits_in_a_row"] == 0
