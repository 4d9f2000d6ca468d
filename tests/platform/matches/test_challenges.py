"""A bot's owner gets games without the organizer: unrated challenges with the bot's own token, and a
new signing secret, pinged before it counts, when the old one leaked."""

from __future__ import annotations

from arena.api import create_app
from arena.worker.execution import RunOutcome, execute
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
    assert arena.runtime.store.get_bot(bot["id"]).secret == old
    # the author restarts the bot with the new secret, then tells the platform
    arena.bots.secrets["/first/leaky"] = fresh
    answer = arena.client.post(url, json={"secret": fresh}, headers=bearer(bot["token"]))
    assert answer.status_code == 200
    assert answer.get_json()["id"] == bot["id"] and "secret" not in answer.get_json()
    assert arena.runtime.store.get_bot(bot["id"]).secret == fresh
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
