"""A bot's rating history, its rest on a continuous ladder, and the ping its owner asks for."""

from __future__ import annotations

from typing import Any

from arena.api import create_app
from arena.ladders.matchmaking import REST_AFTER_FORFEITS, resting_bots
from tests.platform.conftest import Arena, ListQueue, make_runtime, register_bot


def _play(arena: Arena, bots: list[str], seed: int, rated: bool = True) -> str:
    match = arena.match(game="nim", bots=bots, seed=seed, rated=rated, options={"stones": 7}, max_faults=1)
    arena.run_queue()
    return str(match["id"])


def _owner(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['token']}"}


def test_the_history_lists_a_point_per_counted_match_oldest_first(arena: Arena) -> None:
    first = arena.register("first", "/first/api-h1", ["nim"])["id"]
    last = arena.register("last", "/last/api-h1", ["nim"])["id"]
    played = [_play(arena, [first, last], seed) for seed in (1, 2, 3)]
    _play(arena, [first, last], 4, rated=False)
    history = arena.get(f"/api/v1/bots/{first}/history?game=nim&variant=standard")
    assert (history["bot_id"], history["game"], history["variant"], history["rated"]) == (
        first,
        "nim",
        "standard",
        True,
    )
    assert history["kept"] == arena.runtime.settings.history_points
    assert [point["match"] for point in history["points"]] == played
    assert set(history["points"][0]) == {"match", "at", "rating", "mu", "sigma", "conservative"}
    assert arena.get(f"/api/v1/bots/{first}/history") == history  # the first game's default variant


def test_the_history_of_a_game_the_bot_does_not_play_is_422(arena: Arena) -> None:
    bot = arena.register("first", "/first/api-h2", ["nim"])["id"]
    answer = arena.client.get(f"/api/v1/bots/{bot}/history?game=party")
    assert answer.status_code == 422 and "game" in answer.get_json()["errors"]
    answer = arena.client.get(f"/api/v1/bots/{bot}/history?variant=blitz")
    assert answer.status_code == 422 and "variant" in answer.get_json()["errors"]
    assert arena.client.get("/api/v1/bots/b-missing/history").status_code == 404


def _rest(arena: Arena, path: str) -> tuple[dict[str, Any], str]:
    """A bot that forfeits enough rated matches in a row to rest (its bot server expects another
    secret), and its opponent."""
    tired = arena.register("tired", path, ["nim"])
    other = arena.register("other", path.replace("/first/", "/last/"), ["nim"])["id"]
    arena.bots.secrets[path] = "not-the-secret-it-was-registered-with-0123456789"
    for seed in range(REST_AFTER_FORFEITS):
        _play(arena, [tired["id"], other], seed)
    return tired, other


def test_a_resting_bot_says_since_when_why_and_how_to_come_back(arena: Arena) -> None:
    tired, _ = _rest(arena, "/first/api-r1")
    assert resting_bots(arena.runtime, "nim", "standard") == [tired["id"]]
    (rest,) = arena.get(f"/api/v1/bots/{tired['id']}")["resting"]
    last = arena.get(f"/api/v1/bots/{tired['id']}/history")["points"][-1]["match"]
    assert (rest["game"], rest["variant"], rest["last_match"]) == ("nim", "standard", last)
    assert rest["forfeits_in_a_row"] == REST_AFTER_FORFEITS
    assert rest["since"] == arena.get(f"/api/v1/matches/{last}")["finished_at"]
    assert "forfeited" in rest["reason"] and f"/api/v1/bots/{tired['id']}/ping" in rest["how_to_return"]


def test_a_failed_ping_says_what_to_fix_and_a_passed_one_brings_the_bot_back(arena: Arena) -> None:
    path = "/first/api-r2"
    tired, _ = _rest(arena, path)
    url = f"/api/v1/bots/{tired['id']}/ping"
    failed = arena.client.post(url, headers=_owner(tired))
    assert failed.status_code == 200
    body = failed.get_json()
    assert body["ok"] is False and body["status"] == 401 and "secret" in body["problems"]
    assert body["detail"] == "answered 401"
    assert body["back_on"] == [] and arena.get(f"/api/v1/bots/{tired['id']}")["resting"]

    record = arena.runtime.store.bots.get(tired["id"])
    assert record is not None
    arena.bots.secrets[path] = record.secret  # the bot restarted with its own secret
    passed = arena.client.post(url, headers=_owner(tired)).get_json()
    assert passed["ok"] is True and passed["problems"] == {} and passed["fault"] is None
    assert passed["back_on"] == [{"game": "nim", "variant": "standard"}]
    assert arena.get(f"/api/v1/bots/{tired['id']}")["resting"] == []
    assert resting_bots(arena.runtime, "nim", "standard") == []


def test_the_ping_needs_the_bots_token(arena: Arena) -> None:
    mine = arena.register("mine", "/first/api-p1", ["nim"])
    theirs = arena.register("theirs", "/first/api-p2", ["nim"])
    url = f"/api/v1/bots/{mine['id']}/ping"
    assert arena.client.post(url).status_code == 401
    assert arena.client.post(url, headers=_owner(theirs)).status_code == 401
    assert arena.client.post(url, headers=_owner(mine)).get_json()["ok"] is True
    assert arena.client.post(url, headers=arena.admin()).get_json()["ok"] is True


def test_pings_past_the_limit_are_429(arena: Arena) -> None:
    """The owner's pings on demand count per token (ARENA_PING_LIMIT), not per client address."""
    runtime = make_runtime(ListQueue(), registration_limit="2 per minute", ping_limit="3 per minute")
    client = create_app(runtime).test_client()
    mine = register_bot(client, arena.bots, "mine", "/first/api-p3", ["nim"])
    url = f"/api/v1/bots/{mine['id']}/ping"
    codes = [client.post(url, headers=_owner(mine)).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
