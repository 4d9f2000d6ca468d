"""The replay store (arena.storage.files): directory, memory and S3 (on a moto server) share one contract:
write-once names, whole documents, nothing for an absent name."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.settings import Settings, SettingsError
from arena.storage.files import (
    DirectoryStore,
    FileStore,
    MemoryStore,
    S3Store,
    StorageUnavailable,
    open_file_store,
    read,
)
from tests.platform.waiting import wait_until


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def moto_endpoint() -> Iterator[str]:
    """An S3-compatible server of the tests' own: moto in server mode on a free loopback port."""
    server = shutil.which("moto_server", path=str(Path(sys.executable).parent)) or shutil.which("moto_server")
    if server is None:
        pytest.skip("moto[server] is not installed")
    port = _free_port()
    process = subprocess.Popen(
        [server, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    endpoint = f"http://127.0.0.1:{port}"

    def listening() -> bool:
        assert process.poll() is None, "moto_server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return False
        return True

    try:
        wait_until(listening, 20, "moto_server did not start within 20 s")
        yield endpoint
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def s3_bucket(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> str:
    import uuid

    import boto3

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    bucket = f"replays-{uuid.uuid4().hex[:8]}"
    boto3.client("s3", endpoint_url=moto_endpoint).create_bucket(Bucket=bucket)
    return bucket


@pytest.fixture(params=["directory", "memory", pytest.param("s3", marks=pytest.mark.integration)])
def files(request: pytest.FixtureRequest, tmp_path: Path) -> FileStore:
    if request.param == "directory":
        return DirectoryStore(tmp_path / "store")
    if request.param == "memory":
        return MemoryStore()
    bucket = request.getfixturevalue("s3_bucket")
    endpoint = request.getfixturevalue("moto_endpoint")
    return open_file_store(f"s3://{bucket}/arena/replays", endpoint)


def test_a_document_reads_back_whole_and_an_absent_one_is_none(files: FileStore) -> None:
    data = os.urandom(70_000)
    assert not files.exists("replays/m-1/a.json.gz")
    assert files.open("replays/m-1/a.json.gz") is None and read(files, "replays/m-1/a.json.gz") is None
    assert files.put("replays/m-1/a.json.gz", data) is True
    assert files.exists("replays/m-1/a.json.gz")
    assert read(files, "replays/m-1/a.json.gz") == data
    assert not files.exists("replays/m-1/b.json.gz")


def test_the_first_write_of_a_name_wins(files: FileStore) -> None:
    assert files.put("matches/m-2.json", b"first") is True
    assert files.put("matches/m-2.json", b"second") is False
    assert read(files, "matches/m-2.json") == b"first"


def test_delete_removes_a_document_and_ignores_an_absent_one(files: FileStore) -> None:
    files.put("replays/m-3/a.json.gz", b"x")
    files.delete("replays/m-3/a.json.gz")
    files.delete("replays/m-3/a.json.gz")
    assert not files.exists("replays/m-3/a.json.gz") and read(files, "replays/m-3/a.json.gz") is None


@pytest.mark.parametrize("name", ["", "/etc/passwd", "../up.json", "a/../../b", "a//b"])
def test_names_that_leave_the_store_are_refused(files: FileStore, name: str) -> None:
    with pytest.raises(ValueError):
        files.put(name, b"x")


def test_a_directory_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    files = DirectoryStore(tmp_path)
    files.put("replays/m-4/a.json.gz", b"one")
    files.put("replays/m-4/a.json.gz", b"two")
    assert sorted(p.name for p in (tmp_path / "replays" / "m-4").iterdir()) == ["a.json.gz"]


def test_a_directory_that_cannot_be_written_is_a_storage_outage(tmp_path: Path) -> None:
    (tmp_path / "replays").write_text("a file where a directory should be")
    with pytest.raises(StorageUnavailable):
        DirectoryStore(tmp_path).put("replays/m-5/a.json.gz", b"x")


@pytest.mark.integration
def test_an_s3_server_that_is_away_is_a_storage_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    import boto3
    from botocore.config import Config

    client = boto3.client(
        "s3",
        endpoint_url=f"http://127.0.0.1:{_free_port()}",
        config=Config(retries={"max_attempts": 1}, connect_timeout=1),
    )
    store = S3Store(client, "bucket", "x")
    with pytest.raises(StorageUnavailable):
        store.put("matches/m-6.json", b"x")
    with pytest.raises(StorageUnavailable):
        store.open("matches/m-6.json")


def test_settings_name_the_replay_store() -> None:
    assert Settings.from_env({}).replay_store is None
    assert Settings.from_env({"ARENA_REPLAY_DIR": "/srv/replays"}).replay_store == "/srv/replays"
    both = Settings.from_env({"ARENA_REPLAY_DIR": "/srv/replays", "ARENA_REPLAY_URL": "s3://b/p"})
    assert both.replay_store == "s3://b/p"
    assert isinstance(Settings.from_env({"ARENA_REPLAY_DIR": "/srv/r"}).file_store(), DirectoryStore)
    assert Settings.from_env({}).archive_after_days == 30
    assert Settings.from_env({"ARENA_ARCHIVE_AFTER_DAYS": "0"}).archive_after_days == 0
    for bad in ({"ARENA_REPLAY_URL": "ftp://host/x"}, {"ARENA_REPLAY_URL": "s3:///nobucket"}):
        with pytest.raises(SettingsError):
            Settings.from_env(bad)
    with pytest.raises(SettingsError):
        Settings.from_env({"ARENA_ARCHIVE_AFTER_DAYS": "-1"})


def test_an_s3_url_names_bucket_and_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    store = open_file_store("s3://arena-bucket/prod/replays/", "http://127.0.0.1:1")
    assert isinstance(store, S3Store)
    assert (store.bucket, store.prefix) == ("arena-bucket", "prod/replays/")


@pytest.mark.integration
def test_a_store_on_s3_finishes_archives_and_reads_back_matches(
    s3_bucket: str, moto_endpoint: str, toy_games: None
) -> None:
    import gzip

    from arena.matches.archive import archive_ended
    from arena.records import MatchRecord, MatchStatus
    from arena.storage import MatchEnd, Store
    from referee.match import MatchSpec
    from referee.replay import MatchResult

    files = open_file_store(f"s3://{s3_bucket}/arena", moto_endpoint)
    store = Store.in_memory("s3t:", files)
    record = MatchRecord.new("m-1", "nim", "standard", ("b-1", "b-2"), ("One", "Two"), rated=False)
    store.matches.add([(record, MatchSpec.build(game="nim", bots=["b-1", "b-2"], seed=2))])
    replay = gzip.compress(b'{"moves":[]}')

    result = MatchResult(places=(1, 2), scores=(1.0, 0.0), reason="end")
    assert store.finishing.finish_match(MatchEnd("m-1", MatchStatus.FINISHED, replay, 4, result=result))
    late = gzip.compress(b"late")
    assert not store.finishing.finish_match(MatchEnd("m-1", MatchStatus.FINISHED, late, 4, result=result))
    assert store.replays.get("m-1") == replay
    assert archive_ended(store, 0, now=time.time() + 86_400).archived == 1
    assert store.redis.get("s3t:match:m-1") is None
    again = open_file_store(f"s3://{s3_bucket}/arena", moto_endpoint)  # a fresh client and no cache
    reread = Store(store.redis, store.blobs, "s3t:", again)
    assert reread.matches.get("m-1") == store.matches.get("m-1")
    assert reread.matches.get("m-1").moves == 4  # type: ignore[union-attr]
    assert reread.replays.get("m-1") == replay
    assert files.exists("matches/m-1.json")


def test_a_directory_without_hard_links_still_writes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(source: str, target: str) -> None:
        raise PermissionError("hard links are not supported here")

    monkeypatch.setattr(os, "link", no_links)
    files = DirectoryStore(tmp_path)
    assert files.put("replays/m-7/a.json.gz", b"first") is True
    assert files.put("replays/m-7/a.json.gz", b"second") is False
    assert read(files, "replays/m-7/a.json.gz") == b"first"
    assert [p.name for p in (tmp_path / "replays" / "m-7").iterdir()] == ["a.json.gz"]


def test_under_gevent_a_replay_written_to_a_slow_disk_lets_the_other_matches_play(tmp_path: Path) -> None:
    # the write, fsync and link of a replay block the process; a gevent worker's other matches must
    # go on meanwhile (here an fsync that takes 0.3 s, as on a slow network volume)
    script = f"""
from gevent import monkey
monkey.patch_all()
import os, time
import gevent
from arena.storage.files import DirectoryStore
real_sleep = monkey.get_original("time", "sleep")
real_fsync = os.fsync
def slow_fsync(descriptor):
    real_sleep(0.3)  # blocks the calling thread, as a disk does
    real_fsync(descriptor)
os.fsync = slow_fsync
ticks = []
def other_match():
    while True:
        ticks.append(1)
        gevent.sleep(0.01)
gevent.spawn(other_match)
gevent.sleep(0)
written = DirectoryStore({str(tmp_path)!r}).put("replays/m-1/r.json.gz", b"replay")
print(written, len(ticks) >= 10, open({str(tmp_path / "replays/m-1/r.json.gz")!r}, "rb").read().decode())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["True", "True", "replay"], done.stderr
