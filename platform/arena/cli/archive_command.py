"""``arena archive``: move ended matches older than some days out of Redis, into the replay store.

The workers do it about once an hour on their own (:mod:`arena.worker.sweeper`); the command is for a cron
job, a first run after an upgrade, or a different age than ``ARENA_ARCHIVE_AFTER_DAYS``.
"""

from __future__ import annotations

import argparse

from arena.cli.local_play import UsageError
from arena.settings import Settings, SettingsError


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not days >= 0:
        raise argparse.ArgumentTypeError(f"days are 0 or more, not {text}")
    return days


def _count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {count}")
    return count


def _archive(args: argparse.Namespace) -> int:
    from redis.exceptions import RedisError

    from arena.matches.archive import archive_ended
    from arena.storage import Store

    try:
        settings = Settings.from_env()
    except SettingsError as error:
        raise UsageError(str(error)) from None
    if settings.embedded or not settings.redis_url:
        raise UsageError("arena archive needs REDIS_URL (the embedded platform keeps nothing to archive)")
    days = settings.archive_after_days if args.older_than is None else args.older_than
    try:
        store = Store.connect(
            settings.redis_url, settings.key_prefix, settings.file_store(), timeout_s=settings.redis_timeout_s
        )
        report = archive_ended(store, days, limit=args.limit)
    except (RedisError, ValueError) as error:
        raise UsageError(f"cannot archive: {error}") from None
    print(
        f"archived {report.archived} matches that ended more than {days:g} days ago "
        f"into {store.files!r}; {report.kept} older matches stay (not ended, or ended later)"
    )
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``archive`` on the ``arena`` parser's subcommands."""
    archive = commands.add_parser(
        "archive",
        help="move old ended matches out of Redis into the replay store",
        description="Move matches that ended more than DAYS ago (default ARENA_ARCHIVE_AFTER_DAYS, 30) "
        "out of Redis into the replay store (ARENA_REPLAY_URL or ARENA_REPLAY_DIR): the API still "
        "serves them. Needs REDIS_URL.",
    )
    archive.add_argument(
        "--older-than", type=_days, default=None, metavar="DAYS", help="age in days (default: the setting)"
    )
    archive.add_argument("--limit", type=_count, default=None, help="archive at most this many matches")
    archive.set_defaults(func=_archive)
