"""A bot's protocol version on the platform: taken, checked, stored, shown, changed, pinged in, and
spoken in its matches, seat by seat; bots stored before versions were kept play version 1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from arena.cli.main import main
from arena.records import BotRecord
from bots.server import serve_in_thread
from referee.protocol import new_secret, request_validator
from referee.replay import decompress, verify_replay
from referee.transport.agents import HttpAgent, Reply
from tests.platform import bot_server
from tests.platform.conftest import Arena


def _refusal(answer: Any) -> dict[str, list[str]]:
    assert answer.status_code == 422, answer.get_json()
    errors: dict[str, list[str]] = answer.get_json()["errors"]
    return errors


def _body(arena: Arena, path: str, **extra: Any) -> dict[str, Any]:
    arena.bots.secrets[path] = secret = new_secret()
    return {"name": path, "endpoint": arena.bots.url(path), "games": ["nim"], "secret": secret, **extra}


def test_a_bot_is_version_1_unless_registered_with_version_2_and_the_ping_is_in_its_version(
    arena: Arena,
) -> None:
    before = len(bot_server.PINGS)
    plain = arena.client.post("/api/v1/bots", json=_body(arena, "/first/plain"))
    newer = arena.client.post("/api/v1/bots", json=_body(arena, "/first/newer", protocol=2))
    assert plain.status_code == newer.status_code == 201
    assert plain.get_json()["protocol"] == 1 and newer.get_json()["protocol"] == 2
    assert [(path, ping["protocol"]) for path, ping in bot_server.PINGS[before:]] == [
        ("/first/plain", 1),
        ("/first/newer", 2),
    ]
    assert arena.get(f"/api/v1/bots/{newer.get_json()['id']}")["protocol"] == 2
    assert {bot["name"]: bot["protocol"] for bot in arena.get("/api/v1/bots")} == {
        "/first/plain": 1,
        "/first/newer": 2,
    }
    assert arena.runtime.store.bots.get(newer.get_json()["id"]).protocol == 2


def test_the_bots_page_says_which_version_it_is_spoken_to(arena: Arena) -> None:
    plain = arena.client.post("/api/v1/bots", json=_body(arena, "/first/page-plain")).get_json()
    newer = arena.client.post("/api/v1/bots", json=_body(arena, "/first/page-newer", protocol=2)).get_json()
    pages = {bot["protocol"]: arena.client.get(f"/bots/{bot['id']}") for bot in (plain, newer)}
    assert all(page.status_code == 200 for page in pages.values())
    shown = {version: page.get_data(as_text=True) for version, page in pages.items()}
    assert '<dd class="protocol">version 1 (move requests list the legal moves)</dd>' in shown[1]
    assert '<dd class="protocol">version 2 (move requests leave the legal moves out)</dd>' in shown[2]


@pytest.mark.parametrize("version", [0, 3, "2", 2.0, True, None, [2]])
def test_any_other_protocol_is_a_422_naming_protocol_before_any_ping(arena: Arena, version: Any) -> None:
    before = len(bot_server.PINGS)
    errors = _refusal(arena.client.post("/api/v1/bots", json=_body(arena, "/first/odd", protocol=version)))
    assert list(errors) == ["protocol"], errors
    assert bot_server.PINGS[before:] == []
    bot = arena.register("settled", "/first/settled", ["nim"])
    owner = {"Authorization": f"Bearer {bot['token']}"}
    errors = _refusal(
        arena.client.patch(f"/api/v1/bots/{bot['id']}", json={"protocol": version}, headers=owner)
    )
    assert list(errors) == ["protocol"], errors


def test_patch_changes_the_version_once_a_ping_in_the_new_version_passed(arena: Arena) -> None:
    bot = arena.register("switcher", "/first/switcher", ["nim"])
    owner = {"Authorization": f"Bearer {bot['token']}"}
    url = f"/api/v1/bots/{bot['id']}"
    before = len(bot_server.PINGS)
    changed = arena.client.patch(url, json={"protocol": 2}, headers=owner)
    assert changed.status_code == 200 and changed.get_json()["protocol"] == 2
    assert [ping["protocol"] for _, ping in bot_server.PINGS[before:]] == [2]
    assert arena.get(url)["protocol"] == 2 and arena.runtime.store.bots.get(bot["id"]).protocol == 2
    renamed = arena.client.patch(url, json={"name": "still two"}, headers=owner)
    assert renamed.get_json()["protocol"] == 2 and len(bot_server.PINGS) == before + 1
    back = arena.client.patch(url, json={"protocol": 1}, headers=owner)
    assert back.get_json()["protocol"] == 1 and bot_server.PINGS[-1][1]["protocol"] == 1
    # a new secret is pinged in the bot's version
    arena.client.patch(url, json={"protocol": 2}, headers=owner)
    arena.bots.secrets["/first/switcher"] = secret = new_secret()
    answer = arena.client.post(f"{url}/secret", json={"secret": secret}, headers=owner)
    assert answer.status_code == 200 and bot_server.PINGS[-1][1]["protocol"] == 2


@pytest.fixture
def sdk_bots() -> Iterator[tuple[str, dict[str, str], str, dict[str, str]]]:
    """The reference bots behind the SDK, once started for version 1, once for version 2."""
    one: dict[str, str] = {}
    two: dict[str, str] = {}
    server_one, base_one = serve_in_thread(secrets=one)
    server_two, base_two = serve_in_thread(secrets=two, protocol=2)
    yield base_one, one, base_two, two
    server_one.shutdown()
    server_two.shutdown()


def _register(arena: Arena, base: str, secrets: dict[str, str], path: str, **extra: Any) -> Any:
    secrets[path] = secret = new_secret()
    body = {"name": f"{path} {extra}", "endpoint": f"{base}/{path}", "games": ["volcano"], "secret": secret}
    return arena.client.post("/api/v1/bots", json={**body, **extra})


def test_a_bot_started_for_version_1_cannot_be_registered_or_switched_to_version_2(
    arena: Arena, sdk_bots: tuple[str, dict[str, str], str, dict[str, str]]
) -> None:
    base_one, one, _, _ = sdk_bots
    errors = _refusal(_register(arena, base_one, one, "volcano/random", protocol=2))
    assert list(errors) == ["protocol"] and "started to speak protocol 2" in errors["protocol"][0]
    created = _register(arena, base_one, one, "volcano/random")
    assert created.status_code == 201
    owner = {"Authorization": f"Bearer {created.get_json()['token']}"}
    errors = _refusal(
        arena.client.patch(f"/api/v1/bots/{created.get_json()['id']}", json={"protocol": 2}, headers=owner)
    )
    assert list(errors) == ["protocol"]
    assert arena.runtime.store.bots.get(created.get_json()["id"]).protocol == 1


class _Recording:
    """An HTTP agent that keeps the requests it sends."""

    def __init__(self, agent: HttpAgent, sent: list[dict[str, Any]]) -> None:
        self.agent = agent
        self.sent = sent

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        self.sent.append(json.loads(json.dumps(request)))
        return self.agent.ask(request, timeout_s)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        self.sent.append(json.loads(json.dumps(request)))
        self.agent.notify(request, timeout_s)


def _recording(arena: Arena) -> dict[str, list[dict[str, Any]]]:
    sent: dict[str, list[dict[str, Any]]] = {}

    def build(bot: BotRecord) -> _Recording:
        agent = HttpAgent(bot.endpoint, bot.secret, arena.runtime.settings.policy)
        return _Recording(agent, sent.setdefault(bot.id, []))

    arena.runtime.agent_for = build
    return sent


def test_a_match_speaks_to_each_seat_in_its_own_bots_version_and_its_replay_verifies(
    arena: Arena, sdk_bots: tuple[str, dict[str, str], str, dict[str, str]]
) -> None:
    _, _, base_two, two = sdk_bots
    old = _register(arena, base_two, two, "volcano/greedy").get_json()
    new = _register(arena, base_two, two, "volcano/random", protocol=2).get_json()
    sent = _recording(arena)
    match = arena.match(game="volcano", bots=[old["id"], new["id"]], seed=4)
    arena.run_queue()
    finished = arena.get(f"/api/v1/matches/{match['id']}")
    assert finished["status"] == "finished"
    assert all(seat["faults"] == 0 for seat in finished["seats"]), finished["seats"]
    moves = {bot: [r for r in requests if r["type"] == "move"] for bot, requests in sent.items()}
    assert moves[old["id"]] and moves[new["id"]]
    assert all(r["protocol"] == 1 and "legal_moves" in r for r in moves[old["id"]])
    assert all(r["protocol"] == 2 and "legal_moves" not in r for r in moves[new["id"]])
    assert {r["protocol"] for r in sent[new["id"]]} == {2}
    assert not any(list(request_validator(2).iter_errors(r)) for r in sent[new["id"]])
    assert not any(list(request_validator(1).iter_errors(r)) for r in sent[old["id"]])
    replay = decompress(arena.runtime.store.replays.get(match["id"]))
    assert not verify_replay(replay)
    # the replay and the match say which version each seat was spoken to
    assert [seat["protocol"] for seat in replay["seats"]] == [1, 2]
    assert [seat["protocol"] for seat in finished["seats"]] == [1, 2]
    page = arena.client.get(f"/matches/{match['id']}").get_data(as_text=True)
    assert page.count('class="badge protocol"') == 1  # version 2 is marked; version 1, the default, is not
    queued = arena.match(game="volcano", bots=[old["id"], new["id"]], seed=5)
    assert all("protocol" not in seat for seat in arena.get(f"/api/v1/matches/{queued['id']}")["seats"])


def test_a_bot_stored_before_versions_were_kept_reads_and_plays_as_version_1(
    arena: Arena, sdk_bots: tuple[str, dict[str, str], str, dict[str, str]]
) -> None:
    _, _, base_two, two = sdk_bots
    created = _register(arena, base_two, two, "volcano/random").get_json()
    other = _register(arena, base_two, two, "volcano/greedy", protocol=2).get_json()
    store = arena.runtime.store
    document = store.bots.get(created["id"]).to_json()
    del document["protocol"]  # as it was stored before
    store.redis.set(store.key("bot", created["id"]), json.dumps(document))
    assert "protocol" not in json.loads(store.redis.get(store.key("bot", created["id"])))
    assert store.bots.get(created["id"]).protocol == 1
    assert arena.get(f"/api/v1/bots/{created['id']}")["protocol"] == 1
    sent = _recording(arena)
    arena.match(game="volcano", bots=[created["id"], other["id"]], seed=2)
    arena.run_queue()
    moves = [r for r in sent[created["id"]] if r["type"] == "move"]
    assert moves and all(r["protocol"] == 1 and r["legal_moves"] for r in moves)


def test_arena_play_speaks_version_2_to_url_bots_and_its_replay_verifies(
    sdk_bots: tuple[str, dict[str, str], str, dict[str, str]], tmp_path: Any, capsys: Any
) -> None:
    base_one, _, base_two, _ = sdk_bots
    replay = tmp_path / "v2.json"
    argv = ["play", "volcano", "--bots", f"{base_two}/volcano/random,greedy", "--seed", "3"]
    assert main([*argv, "--protocol", "2", "--replay", str(replay)]) == 0
    assert "no faults" in capsys.readouterr().out
    assert main(["replay", "verify", str(replay)]) == 0
    # a bot started for version 1 refuses version 2 requests: faults, with a hint
    argv = ["play", "volcano", "--bots", f"{base_one}/volcano/random,greedy", "--seed", "3"]
    assert main([*argv, "--protocol", "2"]) == 0
    out = capsys.readouterr().out
    assert "FORFEITED" in out and "HTTP status 400" in out and "started for protocol 2" in out
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--protocol", "3"])
    assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err
