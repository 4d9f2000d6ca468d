"""Two changes to one bot at once: each writes only its own fields, and a change whose ping vouched
for an endpoint, secret or protocol that the other replaced meanwhile is a 409, never a write that
undoes the other (a new secret silently reverted by a slow ``PATCH``)."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest

from arena.records import BotRecord
from arena.storage import Store
from arena.storage.bots import BotChanged
from referee.protocol import new_secret
from tests.platform.accounts.conftest import GatedPing
from tests.platform.conftest import Arena

ERROR_KEYS = {"code", "status", "message", "errors"}


def _in_thread(call: Any) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_a_secret_rotated_while_a_patch_pings_stays_and_the_patch_is_a_conflict(
    arena: Arena, gated: GatedPing
) -> None:
    bot = arena.register("rotating", "/first/rotating", ["nim"])
    owner = {"Authorization": f"Bearer {bot['token']}"}
    url = f"/api/v1/bots/{bot['id']}"
    app = arena.client.application

    # the PATCH reads the bot, then pings the new endpoint, which holds its answer
    moving, answers = _in_thread(
        lambda: app.test_client().patch(url, json={"endpoint": gated.url, "name": "moved"}, headers=owner)
    )
    assert gated.arrived.wait(30), "the PATCH's ping never reached the new endpoint"

    # meanwhile the owner rotates the secret: the bot (still at its old endpoint) knows the new one
    rotated = arena.bots.secrets["/first/rotating"] = new_secret()
    answer = arena.client.post(f"{url}/secret", json={"secret": rotated}, headers=owner)
    assert answer.status_code == 200, answer.get_json()

    gated.release.set()
    moving.join(30)
    assert not moving.is_alive()
    (patched,) = answers
    stored = arena.runtime.store.bots.get(bot["id"])
    assert stored is not None and stored.secret == rotated, "the rotation was undone"
    # the new endpoint was vouched for by a ping signed with the old secret: not written
    assert patched.status_code == 409, patched.get_json()
    body = patched.get_json()
    assert set(body) == ERROR_KEYS and body["code"] == 409 and "secret" in body["message"]
    assert (stored.endpoint, stored.name) == (arena.bots.url("/first/rotating"), "rotating")

    # sent again, the change is pinged with the secret now in force and goes through
    again = arena.client.patch(url, json={"endpoint": gated.url, "name": "moved"}, headers=owner)
    assert again.status_code == 200, again.get_json()
    stored = arena.runtime.store.bots.get(bot["id"])
    assert stored is not None
    assert (stored.endpoint, stored.name, stored.secret) == (gated.url, "moved", rotated)


def test_a_rename_during_a_rotation_writes_only_the_name(arena: Arena, gated: GatedPing) -> None:
    """The other way round: the rotation's ping is the slow one, and a rename (no ping) lands in
    between; both stand."""
    bot = arena.register("renamed", "/first/renamed", ["nim"])
    owner = {"Authorization": f"Bearer {bot['token']}"}
    url = f"/api/v1/bots/{bot['id']}"
    gated.release.set()  # this move's ping passes at once
    assert arena.client.patch(url, json={"endpoint": gated.url}, headers=owner).status_code == 200
    gated.release.clear()
    gated.arrived.clear()
    app = arena.client.application
    rotated = new_secret()
    rotating, answers = _in_thread(
        lambda: app.test_client().post(f"{url}/secret", json={"secret": rotated}, headers=owner)
    )
    assert gated.arrived.wait(30), "the rotation's ping never reached the endpoint"
    renamed = arena.client.patch(url, json={"name": "new name"}, headers=owner)
    assert renamed.status_code == 200, renamed.get_json()
    gated.release.set()
    rotating.join(30)
    (answer,) = answers
    assert answer.status_code == 200, answer.get_json()
    stored = arena.runtime.store.bots.get(bot["id"])
    assert stored is not None and (stored.name, stored.secret) == ("new name", rotated)


def _record(bot_id: str = "b-00000000000000aa") -> BotRecord:
    return BotRecord(
        id=bot_id,
        name="Bot",
        endpoint="http://bot.invalid/a",
        games=("nim", "party"),
        token_hash="-",
        secret="s" * 32,
        created_at="2026-11-26T00:00:00+00:00",
        created_ts=1.0,
        updated_at="2026-11-26T00:00:00+00:00",
    )


def test_change_bot_writes_only_the_fields_it_is_given() -> None:
    store = Store.in_memory("t:")
    bot = _record()
    store.bots.put(bot)
    store.bots.change(bot.id, {}, {"secret": "n" * 32})  # another request, after this one read it
    changed = store.bots.change(bot.id, {}, {"name": "Renamed", "games": ("nim",)})
    assert changed is not None and store.bots.get(bot.id) == changed
    assert (changed.name, changed.secret, changed.games) == ("Renamed", "n" * 32, ("nim",))
    assert store.bots.ids_of_game("party") == [] and store.bots.ids_of_game("nim") == [bot.id]


def test_change_bot_refuses_when_what_it_was_decided_on_moved() -> None:
    store = Store.in_memory("t:")
    bot = _record()
    store.bots.put(bot)
    store.bots.change(bot.id, {}, {"secret": "n" * 32})
    with pytest.raises(BotChanged) as refused:
        store.bots.change(bot.id, {"endpoint": bot.endpoint, "secret": bot.secret}, {"endpoint": "http://x/"})
    assert refused.value.fields == ("secret",)
    assert store.bots.get(bot.id) == replace(bot, secret="n" * 32)
    assert store.bots.change("b-00000000000000ff", {}, {"name": "x"}) is None
