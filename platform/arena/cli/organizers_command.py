"""``arena organizers add NAME`` / ``list`` / ``remove ID``: the admin's organizers, from the command line.

On ``REDIS_URL`` it works on the deployment's store, as ``POST``/``GET``/``DELETE /api/v1/organizers``
do. Without it (the embedded default) it works on the store a stopped platform left in ``--data DIR``
(``arena serve --data DIR`` and ``arena demo`` keep it there): a running embedded platform keeps its
store in memory and would write its own over the change when it stops.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from arena.cli.local_play import UsageError
from arena.settings import Settings, SettingsError

if TYPE_CHECKING:
    from arena.storage import Store

T = TypeVar("T")


@contextmanager
def _store(data: Path | None) -> Iterator[Store]:
    from arena.storage import Store, snapshot

    try:
        settings = Settings.from_env()
    except SettingsError as error:
        raise UsageError(str(error)) from None
    if settings.redis_url and not settings.embedded:
        yield Store.connect(settings.redis_url, settings.key_prefix, timeout_s=settings.redis_timeout_s)
        return
    if data is None:
        raise UsageError(
            "without REDIS_URL, say which platform: --data DIR (the one arena serve --data uses)"
        )
    saved = data / "store.json"
    store = Store.in_memory(settings.key_prefix)
    if saved.exists():
        snapshot.load(store.redis, saved)
    yield store
    data.mkdir(parents=True, exist_ok=True)
    snapshot.save(store.redis, settings.key_prefix, saved)


def _run(args: argparse.Namespace, job: Callable[[Store], T]) -> T:
    from redis.exceptions import RedisError

    try:
        with _store(args.data) as store:
            return job(store)
    except UsageError:
        raise
    except (RedisError, ValueError, OSError) as error:
        raise UsageError(f"cannot reach the store: {error}") from None


def _add(args: argparse.Namespace) -> int:
    from arena.accounts import organizers

    name = args.name.strip()
    if not 1 <= len(name) <= 100:
        raise UsageError("an organizer's name is 1 to 100 characters")
    organizer, token = _run(args, lambda store: organizers.create(store, name))
    print(f"organizer {organizer.id} ({organizer.name})")
    print(f"token (shown this once; it creates and runs this organizer's tournaments): {token}")
    return 0


def _list(args: argparse.Namespace) -> int:
    found = _run(args, lambda store: store.organizers.list_all())
    for organizer in found:
        print(f"{organizer.id}\t{organizer.name}\t{organizer.created_at}")
    if not found:
        print("no organizers")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from arena.accounts import organizers
    from arena.errors import NotFound

    try:
        gone = _run(args, lambda store: organizers.remove(store, args.id))
    except NotFound as error:
        raise UsageError(error.message) from None
    print(f"revoked organizer {gone.id} ({gone.name}): its token no longer works; its tournaments stay")
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``organizers`` on the ``arena`` parser's subcommands."""
    parser = commands.add_parser(
        "organizers",
        help="make, list and revoke organizers (who may run tournaments)",
        description="The admin's organizers: each one's token (shown once) creates tournaments and "
        "changes or cancels its own. On REDIS_URL, the deployment's; else the store in --data DIR of a "
        "stopped platform.",
    )
    parser.add_argument("--data", type=Path, default=None, metavar="DIR", help="the embedded platform's data")
    which = parser.add_subparsers(dest="action", required=True, metavar="{add,list,remove}")
    add = which.add_parser("add", help="make an organizer and print its token once")
    add.add_argument("name", help="the organizer's name, as its tournaments show it (1 to 100 characters)")
    add.set_defaults(func=_add)
    which.add_parser("list", help="the organizers, oldest first").set_defaults(func=_list)
    remove = which.add_parser("remove", help="revoke an organizer (its tournaments stay)")
    remove.add_argument("id", help="the organizer's id (o-..., as list shows it)")
    remove.set_defaults(func=_remove)
