"""Where replays and archived match records live: files, not Redis RAM.

A finished match's replay (gzip of its ``arena-replay/1`` JSON) is the biggest thing the platform
keeps, and it is written once and read now and then: a poor fit for Redis, whose RAM every byte
stays in. :class:`FileStore` is the small protocol for such write-once documents, keyed by a name
like ``replays/m-0123/5f2c.json.gz``; three implementations:

- :class:`DirectoryStore`: a local (or mounted) directory; ``ARENA_REPLAY_DIR``.
- :class:`S3Store`: a bucket of any S3-compatible object store (AWS, MinIO, Ceph...);
  ``ARENA_REPLAY_URL=s3://bucket/prefix``, credentials and region from the usual ``AWS_*`` variables,
  ``ARENA_S3_ENDPOINT`` for a server other than AWS.
- :class:`MemoryStore`: a dict, for the in-memory store of the tests.

Writes are atomic and never replace what is there: a directory writes a temporary file and links it
to its name (a link, unlike a rename, fails when the name exists; on a file system without hard
links, a rename after a check); S3 is one ``PUT`` with ``If-None-Match: *``. Readers thus see a
whole document or none.

Why a replay's name holds a run token (``replays/<match id>/<run>.json.gz``): two runs of one match
can both reach its end (a worker that was thought dead finishes after all). The end that counts is
the one whose Redis transaction commits (:meth:`arena.storage.finishing.Finishing.finish_match`).
Each run writes its replay first, under a name of its own, and the transaction records that name's
token beside the result. The stored result and the replay it points to are therefore always the same
run's, whichever run wins, and a run that crashes between the two writes loses nothing that counted:
its match is played again, its file is an orphan. Writing the replay only after the transaction
would instead leave a finished match without its replay whenever a worker died in between.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from redis.exceptions import RedisError

from arena.storage.off_loop import call_off_loop

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


class StorageUnavailable(RedisError):
    """The file store could not be written or read right now (a full disk, an object store away).

    A kind of :class:`RedisError` on purpose: the worker treats an outage of the store's files like
    one of its Redis (the match is run again later) instead of aborting a match that was played.
    """


class FileStore(Protocol):
    """Write-once documents by name (``a/b/c.json``)."""

    def put(self, name: str, data: bytes) -> bool:
        """Store ``data`` under ``name`` unless something is there; True when this call stored it."""
        ...

    def open(self, name: str) -> IO[bytes] | None:
        """The stored bytes as a file to read (and close), or None when there is nothing."""
        ...

    def exists(self, name: str) -> bool: ...

    def delete(self, name: str) -> None:
        """Remove a document (a losing run's replay); nothing happens when it is absent."""
        ...


def read(files: FileStore, name: str) -> bytes | None:
    """All of a stored document, or None."""
    handle = files.open(name)
    if handle is None:
        return None
    with handle:
        return handle.read()


def replay_name(match_id: str, run: str) -> str:
    return f"replays/{match_id}/{run}.json.gz"


def record_name(match_id: str) -> str:
    """Where an archived match (record, spec and replay token) lives."""
    return f"matches/{match_id}.json"


def _check_name(name: str) -> str:
    parts = name.split("/")
    if not name or name.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"not a document name: {name!r}")
    return name


class DirectoryStore:
    """Documents as files under ``root`` (created on first write)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def _path(self, name: str) -> Path:
        return self.root / _check_name(name)

    def put(self, name: str, data: bytes) -> bool:
        # the write, its fsync and the link block on the disk: off a gevent worker's loop
        return call_off_loop(self._put, self._path(name), data)

    @staticmethod
    def _put(path: Path, data: bytes) -> bool:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                try:
                    os.link(temporary, path)
                except FileExistsError:
                    return False
                except OSError:  # a file system without hard links: a rename, checked first (a
                    if path.exists():  # replay's name is its run's own, so no one else writes it)
                        return False
                    os.replace(temporary, path)
                return True
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        except OSError as error:
            raise StorageUnavailable(f"cannot write {path}: {error}") from error

    def open(self, name: str) -> IO[bytes] | None:
        try:
            return self._path(name).open("rb")
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StorageUnavailable(f"cannot read {name}: {error}") from error

    def exists(self, name: str) -> bool:
        return self._path(name).is_file()

    def delete(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self._path(name).unlink()

    def __repr__(self) -> str:
        return f"DirectoryStore({str(self.root)!r})"


class MemoryStore:
    """Documents in a dict: the in-memory store's files (gone with the process, like its Redis)."""

    def __init__(self) -> None:
        self.documents: dict[str, bytes] = {}
        self.lock = threading.Lock()

    def put(self, name: str, data: bytes) -> bool:
        with self.lock:
            if _check_name(name) in self.documents:
                return False
            self.documents[name] = bytes(data)
            return True

    def open(self, name: str) -> IO[bytes] | None:
        data = self.documents.get(name)
        return None if data is None else io.BytesIO(data)

    def exists(self, name: str) -> bool:
        return name in self.documents

    def delete(self, name: str) -> None:
        with self.lock:
            self.documents.pop(name, None)


class S3Store:
    """Documents as objects under ``prefix`` in an S3 bucket (any S3-compatible server)."""

    def __init__(self, client: S3Client, bucket: str, prefix: str = "") -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""

    @classmethod
    def from_url(cls, url: str, endpoint: str | None = None) -> S3Store:
        """``s3://bucket/prefix``; credentials and region come from boto3's usual sources."""
        try:
            import boto3
        except ImportError:
            raise ValueError("an s3:// replay store needs boto3: pip install 'volcano-arena[s3]'") from None

        parts = urlsplit(url)
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(f"not an s3://bucket/prefix URL: {url!r}")
        client = boto3.client("s3", endpoint_url=endpoint or None)
        return cls(client, parts.netloc, parts.path)

    def _key(self, name: str) -> str:
        return self.prefix + _check_name(name)

    def put(self, name: str, data: bytes) -> bool:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.put_object(Bucket=self.bucket, Key=self._key(name), Body=data, IfNoneMatch="*")
        except ClientError as error:
            if _status(error) in (409, 412):  # already there (412), or a concurrent write of it (409)
                return False
            raise StorageUnavailable(f"cannot write s3://{self.bucket}/{self._key(name)}: {error}") from error
        except BotoCoreError as error:
            raise StorageUnavailable(f"cannot write s3://{self.bucket}/{self._key(name)}: {error}") from error
        return True

    def open(self, name: str) -> IO[bytes] | None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self._key(name))
        except ClientError as error:
            if _status(error) == 404:
                return None
            raise StorageUnavailable(f"cannot read s3://{self.bucket}/{self._key(name)}: {error}") from error
        except BotoCoreError as error:
            raise StorageUnavailable(f"cannot read s3://{self.bucket}/{self._key(name)}: {error}") from error
        body: IO[bytes] = answer["Body"]  # type: ignore[assignment]  # a StreamingBody reads like a file
        return body

    def exists(self, name: str) -> bool:
        from botocore.exceptions import ClientError

        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(name))
        except ClientError as error:
            if _status(error) == 404:
                return False
            raise StorageUnavailable(str(error)) from error
        return True

    def delete(self, name: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(name))

    def __repr__(self) -> str:
        return f"S3Store('s3://{self.bucket}/{self.prefix}')"


def _status(error: Exception) -> int:
    response: Mapping[str, object] = getattr(error, "response", {}) or {}
    meta = response.get("ResponseMetadata")
    status = meta.get("HTTPStatusCode") if isinstance(meta, Mapping) else None
    if isinstance(status, int):
        return status
    code = response.get("Error")
    return 404 if isinstance(code, Mapping) and code.get("Code") in ("NoSuchKey", "404") else 0


DEPLOYMENT_DIR = "var/store"
"""A deployment's files when neither ``ARENA_REPLAY_URL`` nor ``ARENA_REPLAY_DIR`` is set."""


def check_location(url: str) -> str:
    """``url`` when it names a store :func:`open_file_store` can open; ValueError otherwise."""
    if "://" in url and not url.startswith(("s3://", "file://")):
        raise ValueError(f"a replay store is s3://bucket/prefix or a directory, not {url!r}")
    if url.startswith("s3://") and not urlsplit(url).netloc:
        raise ValueError(f"an S3 replay store names its bucket: s3://bucket/prefix, not {url!r}")
    if url.startswith("s3://") and importlib.util.find_spec("boto3") is None:
        raise ValueError("an s3:// replay store needs boto3: pip install 'volcano-arena[s3]'")
    return url


def open_file_store(url: str, s3_endpoint: str | None = None) -> FileStore:
    """The store a setting names: ``s3://bucket/prefix``, ``file:///path`` or a directory path."""
    if url.startswith("s3://"):
        return S3Store.from_url(url, s3_endpoint)
    if url.startswith("file://"):
        return DirectoryStore(urlsplit(url).path)
    return DirectoryStore(check_location(url))


__all__ = [
    "DEPLOYMENT_DIR",
    "DirectoryStore",
    "FileStore",
    "MemoryStore",
    "S3Store",
    "StorageUnavailable",
    "check_location",
    "open_file_store",
    "read",
    "record_name",
    "replay_name",
]
