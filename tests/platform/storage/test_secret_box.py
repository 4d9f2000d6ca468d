"""Bots' secrets encrypted at rest: read back as they were, never in Redis in plain text when a key is
set, records stored in plain text still read, and a missing or wrong key a clear error."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from arena.api import create_app
from arena.records import BotRecord
from arena.settings import Settings, SettingsError
from arena.storage import Store, snapshot
from arena.storage.secret_box import SEALED, SecretBox, SecretsKeyError
from arena.worker.celery_app import make_celery, redis_runtime_factory
from arena.worker.embedded import EmbeddedPlatform
from tests.platform.conftest import ADMIN, LOOPBACK, BotServer, ListQueue, make_runtime, register_bot

KEY = Fernet.generate_key().decode()
SECRET = "a-bot-secret-" + "7" * 40


def _bot(bot_id: str = "b-00000000000000a1", secret: str = SECRET) -> BotRecord:
    return BotRecord(
        id=bot_id,
        name="Bot",
        endpoint="http://bot.invalid/",
        games=("nim",),
        token_hash="sha256:-",
        secret=secret,
        created_at="2026-11-26T00:00:00+00:00",
        created_ts=1.0,
        updated_at="2026-11-26T00:00:00+00:00",
    )


def _everything_in(store: Store) -> str:
    """Every key and value under the store's prefix, as one text: what a reader of Redis sees."""
    redis, seen = store.redis, []
    for key in redis.keys(f"{store.prefix}*"):
        kind = redis.type(key)
        value = {
            "string": redis.get,
            "hash": redis.hgetall,
            "list": lambda k: redis.lrange(k, 0, -1),
            "set": redis.smembers,
            "zset": lambda k: redis.zrange(k, 0, -1),
        }[kind](key)
        seen.append(f"{key} {value}")
    assert seen, "the store holds something"
    return "\n".join(seen)


def test_a_secret_sealed_with_the_key_reads_back_the_same_every_way_a_bot_is_read() -> None:
    store = Store.in_memory("t:", secrets=SecretBox(KEY))
    bot = _bot()
    store.bots.put(bot)
    assert store.bots.get(bot.id) == bot
    assert store.bots.get_many([bot.id]) == {bot.id: bot}
    assert store.bots.list_all() == [bot]
    changed = store.bots.change(bot.id, {"secret": SECRET}, {"name": "Renamed"})
    assert changed == replace(bot, name="Renamed") == store.bots.get(bot.id)


def test_redis_holds_no_secret_in_plain_text_when_a_key_is_set() -> None:
    store = Store.in_memory("t:", secrets=SecretBox(KEY))
    store.bots.put(_bot())
    store.bots.change(_bot().id, {}, {"secret": "a-new-secret-" + "8" * 40})
    stored = json.loads(store.redis.get("t:bot:b-00000000000000a1") or "")
    assert "secret" not in stored and stored[SEALED]
    assert SECRET not in _everything_in(store) and "8" * 40 not in _everything_in(store)
    assert Store.in_memory("t:").secrets.sealing is False  # without a key: as it is, as before


def test_a_registration_through_the_api_stores_the_secret_sealed(toy_games: None, bots: BotServer) -> None:
    runtime = make_runtime(ListQueue(), secrets_key=KEY)
    client = create_app(runtime).test_client()
    created = register_bot(client, bots, "sealed", "/first/sealed", ["nim"])
    secret = bots.secrets["/first/sealed"]
    assert secret not in _everything_in(runtime.store)
    record = runtime.store.bots.get(created["id"])
    assert record is not None and record.secret == secret  # the referee signs with it as before
    ping = client.post(f"/api/v1/bots/{created['id']}/ping", headers={"Authorization": f"Bearer {ADMIN}"})
    assert ping.get_json()["ok"] is True  # the bot checked the signature made with the opened secret


def test_records_stored_in_plain_text_still_read_and_are_sealed_once_a_key_is_set() -> None:
    plain = Store.in_memory("t:")
    plain.bots.put(_bot())
    raw = json.loads(plain.redis.get("t:bot:b-00000000000000a1") or "")
    assert raw["secret"] == SECRET  # as it was written before there were keys

    keyed = Store(plain.redis, plain.blobs, "t:", secrets=SecretBox(KEY))
    assert keyed.bots.get(_bot().id) == _bot(), "a plain record reads as it is"
    assert keyed.bots.prepare_secrets() == 1
    assert SECRET not in _everything_in(keyed) and keyed.bots.get(_bot().id) == _bot()
    assert keyed.bots.prepare_secrets() == 0, "nothing left to seal"


@pytest.mark.parametrize("reading_key", [None, Fernet.generate_key().decode()], ids=["no key", "another key"])
def test_a_sealed_secret_without_its_key_is_a_clear_error(reading_key: str | None) -> None:
    sealed = Store.in_memory("t:", secrets=SecretBox(KEY))
    sealed.bots.put(_bot())
    reader = Store(sealed.redis, sealed.blobs, "t:", secrets=SecretBox(reading_key))
    with pytest.raises(SecretsKeyError, match=r"bot b-00000000000000a1's secret .*ARENA_SECRETS_KEY"):
        reader.bots.get(_bot().id)
    with pytest.raises(SecretsKeyError, match="ARENA_SECRETS_KEY"):
        reader.bots.prepare_secrets()  # what a process starting with it runs first
    assert Store(sealed.redis, sealed.blobs, "t:", secrets=SecretBox(KEY)).bots.prepare_secrets() == 0


def test_a_key_that_is_not_a_fernet_key_is_a_settings_error_and_the_key_never_shows() -> None:
    with pytest.raises(SettingsError, match="ARENA_SECRETS_KEY must be a Fernet key"):
        Settings.from_env({"ARENA_SECRETS_KEY": "0123456789abcdef"})
    settings = Settings.from_env({"ARENA_SECRETS_KEY": f" {KEY} "})
    assert settings.secrets_key == KEY and KEY not in repr(settings)
    assert Settings.from_env({}).secrets_key is None


def test_a_deployment_on_redis_without_a_key_warns_at_start(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(redis_url="redis://127.0.0.1:9/0", redis_timeout_s=1)  # nothing answers there
    with caplog.at_level(logging.WARNING, logger="arena.worker.celery_app"):
        redis_runtime_factory(settings)(make_celery(settings))
    said = caplog.text
    assert "ARENA_SECRETS_KEY is not set" in said and "plain text" in said
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="arena.worker.celery_app"):
        keyed = replace(settings, secrets_key=KEY)
        redis_runtime_factory(keyed)(make_celery(keyed))
    assert "ARENA_SECRETS_KEY is not set" not in caplog.text


def test_the_embedded_platform_refuses_a_saved_store_sealed_with_another_key(
    toy_games: None, tmp_path: Path
) -> None:
    sealed = Store.in_memory("arena:", secrets=SecretBox(KEY))
    sealed.bots.put(_bot())
    snapshot.save(sealed.redis, "arena:", tmp_path / "store.json")
    other = Settings(admin_token=ADMIN, policy=LOOPBACK, secrets_key=Fernet.generate_key().decode())
    with pytest.raises(SecretsKeyError, match="ARENA_SECRETS_KEY"):
        EmbeddedPlatform(other, concurrency=1, data=tmp_path)
