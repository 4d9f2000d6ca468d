"""A bot's owner gets games without the organizer: unrated challenges with the bot's own token, and a
new signing secret, pinged before it counts, when the old one leaked."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from arena.api import create_app
from arena.records import MatchOrigin, MatchRecord
from arena.storage import Store
from arena.worker.execution import RunOutcome, execute
from referee.match import MatchSpec
from referee.protocol import new_secret
from tests.platform.conftest import Arena, ListQueue, make_runtime, register_bot


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_bot_owner_challenges_other_bots_unrated_with_its_own_token(arena: Arena) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    theirs = arena.register("theirs", "/last/theirs", ["nim"])
    answer = arena.client.post(
        "/api/v1/matches",
        json={"game": "nim", "bots": [mine["id"], theirs["id"]]},
        headers=bearer(mine["token"]),
    )
    assert answer.status_code == 202, answer.get_json()
    match = answer.get_json()
    assert (match["rated"], match["origin"]) == (False, "challenge")
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "finished"
    assert arena.get("/api/v1/ladders/nim")["entries"] == [], "a challenge never reaches the ladder"


def test_a_challenge_must_seat_the_tokens_bot_and_be_unrated(arena: Arena) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    a = arena.register("a", "/first/a", ["nim"])
    b = arena.register("b", "/first/b", ["nim"])
    others = {"game": "nim", "bots": [a["id"], b["id"]]}
    assert arena.client.post("/api/v1/matches", json=others, headers=bearer(mine["token"])).status_code == 401
    assert arena.client.post("/api/v1/matches", json=others).status_code == 401
    rated = {"game": "nim", "bots": [mine["id"], a["id"]], "rated": True}
    refused = arena.client.post("/api/v1/matches", json=rated, headers=bearer(mine["token"]))
    assert refused.status_code == 422 and "rated" in refused.get_json()["errors"]
    organizer = arena.client.post("/api/v1/matches", json={**others}, headers=arena.admin())
    assert organizer.status_code == 202 and organizer.get_json()["rated"] is True
    assert arena.queue.ids == [organizer.get_json()["id"]]


def test_challenges_are_rate_limited_per_bot_but_the_organizer_is_not(toy_games: None, bots) -> None:
    runtime = make_runtime(ListQueue(), challenge_limit="2 per minute")
    client = create_app(runtime).test_client()
    made = [register_bot(client, bots, name, f"/first/{name}", ["nim"]) for name in ("x", "y")]
    challenge = {"game": "nim", "bots": [made[0]["id"], made[1]["id"]]}
    codes = [
        client.post("/api/v1/matches", json=challenge, headers=bearer(made[0]["token"])).status_code
        for _ in range(3)
    ]
    assert codes == [202, 202, 429]
    assert client.post("/api/v1/matches", json=challenge, headers=bearer(made[1]["token"])).status_code == 202
    organizer = {"Authorization": f"Bearer {runtime.settings.admin_token}"}
    assert all(
        client.post("/api/v1/matches", json=challenge, headers=organizer).status_code == 202 for _ in range(3)
    )


def test_an_owner_replaces_a_leaked_secret_and_only_the_new_one_signs(arena: Arena) -> None:
    bot = arena.register("leaky", "/first/leaky", ["nim"])
    other = arena.register("other", "/first/other", ["nim"])
    old = arena.bots.secrets["/first/leaky"]
    fresh = new_secret()
    url = f"/api/v1/bots/{bot['id']}/secret"
    assert arena.client.post(url, json={"secret": fresh}).status_code == 401
    assert arena.client.post(url, json={"secret": fresh}, headers=bearer(other["token"])).status_code == 401
    # the bot still runs with the old secret: the ping signed with the new one is refused, nothing changes
    refused = arena.client.post(url, json={"secret": fresh}, headers=bearer(bot["token"]))
    assert refused.status_code == 422
    assert "check the secret" in refused.get_json()["errors"]["secret"][0]
    assert arena.runtime.store.bots.get(bot["id"]).secret == old
    # the author restarts the bot with the new secret, then tells the platform
    arena.bots.secrets["/first/leaky"] = fresh
    answer = arena.client.post(url, json={"secret": fresh}, headers=bearer(bot["token"]))
    assert answer.status_code == 200
    assert answer.get_json()["id"] == bot["id"] and "secret" not in answer.get_json()
    assert arena.runtime.store.bots.get(bot["id"]).secret == fresh
    match = arena.match(game="nim", bots=[bot["id"], other["id"]])
    execute(arena.runtime, match["id"])
    assert arena.get(f"/api/v1/matches/{match['id']}")["seats"][0]["faults"] == 0
    # the token is unchanged by a new secret
    renamed = arena.client.patch(
        f"/api/v1/bots/{bot['id']}", json={"name": "tight"}, headers=bearer(bot["token"])
    )
    assert renamed.status_code == 200
    # a bot still checking the old secret is refused on every request (a fault of its seat)
    arena.bots.secrets["/first/leaky"] = old
    match = arena.match(game="nim", bots=[bot["id"], other["id"]], max_faults=1)
    execute(arena.runtime, match["id"])
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["seats"][0]["fault_kinds"] == {"http_status": 1} and done["seats"][0]["forfeited"]


def test_a_new_secret_is_checked_like_a_registrations(arena: Arena) -> None:
    bot = arena.register("short", "/first/short", ["nim"])
    url = f"/api/v1/bots/{bot['id']}/secret"
    for body, fragment in (
        ({"secret": "local"}, "32 to 256 characters"),
        ({"secret": "x" * 31 + " "}, "printable ASCII"),
        ({}, "Missing data"),
        ({"secret": new_secret(), "token": "x"}, "Unknown field"),
    ):
        answer = arena.client.post(url, json=body, headers=bearer(bot["token"]))
        assert answer.status_code == 422, body
        assert fragment in str(answer.get_json()["errors"]), body


def challenge(arena: Arena, challenger: dict, *others: dict) -> dict:
    answer = arena.client.post(
        "/api/v1/matches",
        json={"game": "nim", "bots": [challenger["id"], *(bot["id"] for bot in others)]},
        headers=bearer(challenger["token"]),
    )
    assert answer.status_code == 202, answer.get_json()
    return answer.get_json()


def test_a_challenge_records_its_challenger_and_only_that_bot_or_the_organizer_cancels_it(
    arena: Arena,
) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    theirs = arena.register("theirs", "/last/theirs", ["nim"])
    stranger = arena.register("stranger", "/first/stranger", ["nim"])
    match = challenge(arena, mine, theirs)
    url = f"/api/v1/matches/{match['id']}"
    assert match["challenger"] == arena.get(url)["challenger"] == mine["id"]
    for token in (theirs["token"], stranger["token"], "not-a-token"):
        refused = arena.client.delete(url, headers=bearer(token))
        assert refused.status_code == 401, token
        body = refused.get_json()
        assert set(body) == {"code", "status", "message", "errors"}
        assert f"the organizer token, or the token of bot {mine['id']}" in body["message"]
    assert arena.get(url)["status"] == "queued", "a refused cancel changes nothing"
    assert arena.client.delete(url, headers=bearer(mine["token"])).status_code == 204
    assert arena.get(url)["status"] == "cancelled"
    assert arena.runtime.store.matches.get(match["id"]).error == "cancelled by the challenger"
    # the opponent's own challenge is its to cancel, not the first bot's
    back = challenge(arena, theirs, mine)
    assert back["challenger"] == theirs["id"]
    back_url = f"/api/v1/matches/{back['id']}"
    assert arena.client.delete(back_url, headers=bearer(mine["token"])).status_code == 401
    assert arena.client.delete(back_url, headers=bearer(theirs["token"])).status_code == 204


def test_the_organizer_cancels_any_challenge_and_no_other_match_has_a_challenger(arena: Arena) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    theirs = arena.register("theirs", "/last/theirs", ["nim"])
    match = challenge(arena, mine, theirs)
    assert arena.client.delete(f"/api/v1/matches/{match['id']}", headers=arena.admin()).status_code == 204
    assert arena.runtime.store.matches.get(match["id"]).error == "cancelled by the organizer"
    organizers = arena.match(game="nim", bots=[mine["id"], theirs["id"]])
    assert organizers["challenger"] is None
    refused = arena.client.delete(f"/api/v1/matches/{organizers['id']}", headers=bearer(mine["token"]))
    assert refused.status_code == 401
    assert refused.get_json()["message"].startswith("cancelling this match needs the organizer token:")


def test_a_challenger_cannot_be_named_in_the_request(arena: Arena) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    theirs = arena.register("theirs", "/last/theirs", ["nim"])
    body = {"game": "nim", "bots": [mine["id"], theirs["id"]], "challenger": theirs["id"]}
    answer = arena.client.post("/api/v1/matches", json=body, headers=bearer(mine["token"]))
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == {"challenger": ["Unknown field."]}


def test_a_challenge_stored_before_challengers_were_kept_is_the_organizers_alone_to_cancel(
    arena: Arena,
) -> None:
    mine = arena.register("mine", "/first/mine", ["nim"])
    theirs = arena.register("theirs", "/last/theirs", ["nim"])
    match = challenge(arena, mine, theirs)
    key = arena.runtime.store.key("match", match["id"])
    stored = json.loads(arena.runtime.store.redis.get(key))
    del stored["challenger"]
    arena.runtime.store.redis.set(key, json.dumps(stored))
    url = f"/api/v1/matches/{match['id']}"
    shown = arena.get(url)
    assert (shown["origin"], shown["challenger"]) == ("challenge", None)
    for bot in (mine, theirs):
        refused = arena.client.delete(url, headers=bearer(bot["token"]))
        assert refused.status_code == 401
        assert "needs the organizer token:" in refused.get_json()["message"]
    assert arena.client.delete(url, headers=arena.admin()).status_code == 204


@pytest.mark.parametrize("challenger", ["b-1", None])
def test_a_match_record_round_trips_with_and_without_a_challenger(challenger: str | None) -> None:
    record = MatchRecord.new(
        "m-1",
        "nim",
        "standard",
        ("b-1", "b-2"),
        ("A", "B"),
        rated=False,
        origin=MatchOrigin.CHALLENGE,
        challenger=challenger,
    )
    assert MatchRecord.from_json(record.to_json()) == record
    assert MatchRecord.from_json(json.loads(json.dumps(record.to_json()))).challenger == challenger
    older = {key: value for key, value in record.to_json().items() if key != "challenger"}
    assert MatchRecord.from_json(older) == replace(record, challenger=None)
    store = Store.in_memory("test:")
    spec = MatchSpec.build(game="vulkan", bots=["b-1", "b-2"], seed=7)
    store.matches.add([(record, spec)])
    assert store.matches.get("m-1") == record
