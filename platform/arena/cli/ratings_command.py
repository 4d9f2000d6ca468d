"""``arena ratings refit GAME VARIANT``: refit a ladder's results in one batch, with intervals;
``arena ratings migrate``: move ladders stored the old way to the paged layout, once, after upgrading.

It reads the ladder's list of counted results (kept by
:meth:`arena.storage.finishing.Finishing.finish_match`, one entry per match that reached the ladder:
match id, bot ids by seat, places, team_won), turns each into teams and ranks exactly as the online
skill model does (:func:`arena.ladders.skill.match_evidence`), fits them by maximum likelihood with
bootstrap 95% intervals (:mod:`arena.ladders.refit`) and stores the ratings, which the ladder then
shows beside the online ones. It needs ``REDIS_URL``: the embedded default keeps nothing between
runs, so there would be no results to refit.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from redis.exceptions import RedisError

from arena.cli.local_play import UsageError
from arena.ladders import refit, skill
from arena.ladders.rows import new_row, rank_key
from arena.records import GAME_ENTRANT, now_iso
from arena.settings import Settings
from arena.storage import Store
from referee.game import SetupError, VariantSpec
from referee.registry import game_ids, get_game

DEFAULT_SAMPLES = 200


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def rankings(results: list[dict[str, Any]], spec: VariantSpec) -> list[refit.Ranking]:
    """The stored results that rate skills, as the model reads them (others are left out)."""
    found = []
    for result in results:
        evidence = skill.match_evidence(spec, result["bots"], result["places"], result.get("team_won"))
        for members, ranks in evidence:
            found.append(refit.Ranking(tuple(tuple(team) for team in members), tuple(ranks)))
    return found


def refit_ladder(store: Store, game_id: str, variant: str, samples: int, seed: int) -> dict[str, Any]:
    """Refit one ladder and store the result; returns what was stored about it."""
    spec = get_game(game_id).variant(variant)
    if not spec.rated:
        raise UsageError(f"{game_id} {variant} is unrated: its ladder has no ratings to refit")
    found = rankings(store.ladders.results(game_id, variant), spec)
    intervals = refit.bootstrap(found, samples=samples, seed=seed)
    fits = {
        bot: {"rating": round(i.rating, 1), "low": round(i.low, 1), "high": round(i.high, 1)}
        for bot, i in intervals.items()
        if bot != GAME_ENTRANT
    }
    about = {"matches": len(found), "samples": samples, "seed": seed, "at": now_iso()}
    store.ladders.put_refit(game_id, variant, fits, about)
    return {**about, "bots": len(fits), "fits": fits}


def migrate(store: Store) -> dict[tuple[str, str], int]:
    """Move every ladder kept the old way (one hash of JSON rows per ladder, read whole) to the
    sorted set and per-row keys; returns how many rows each moved ladder had.

    Old rows had no skill: they start at the model's starting skill (Elo and counts are kept), and
    their matches are not in the ladder's results list, so a refit sees only later matches. Names
    are read once from the bots' records. Rows of bots that no longer exist are dropped.
    """
    moved: dict[tuple[str, str], int] = {}
    for game_id in game_ids():
        game = get_game(game_id)
        for variant, spec in game.variants.items():
            legacy = store.ladders.legacy_rows(game_id, variant)
            if not legacy:
                continue
            bots = store.bots.get_many(legacy)
            rows = {}
            for bot, row in legacy.items():
                if bot in bots:
                    full = {**new_row(spec), **row}
                    rows[bot] = {**full, "key": rank_key(full, spec)}
            store.ladders.put_rows(game_id, variant, rows, {bot: bots[bot].name for bot in rows})
            store.ladders.drop_legacy(game_id, variant)
            moved[(game_id, variant)] = len(rows)
    return moved


def _store(settings: Settings) -> Store:
    if not settings.redis_url:
        raise UsageError("needs REDIS_URL: the ladders are in the platform's Redis")
    return Store.connect(
        settings.redis_url,
        settings.key_prefix,
        timeout_s=settings.redis_timeout_s,
        secrets=settings.secret_box(),  # migrate reads the bots' names
    )


def _migrate(args: argparse.Namespace) -> int:
    store = _store(Settings.from_env(os.environ))
    try:
        moved = migrate(store)
    except RedisError as error:
        print(f"arena ratings: cannot reach Redis: {error}", file=sys.stderr)
        return 1
    for (game_id, variant), count in moved.items():
        print(f"{game_id} {variant}: {count} rows moved")
    print(f"{len(moved)} ladders moved" if moved else "no ladder kept the old way")
    return 0


def _refit(args: argparse.Namespace) -> int:
    settings = Settings.from_env(os.environ)
    if not settings.redis_url:
        raise UsageError("needs REDIS_URL: the ladder's results are in the platform's Redis")
    try:
        get_game(args.game).variant(args.variant)
    except SetupError as error:
        raise UsageError(str(error)) from None
    store = Store.connect(settings.redis_url, settings.key_prefix, timeout_s=settings.redis_timeout_s)
    try:
        done = refit_ladder(store, args.game, args.variant, args.samples, args.seed)
    except RedisError as error:
        print(f"arena ratings: cannot reach Redis: {error}", file=sys.stderr)
        return 1
    print(
        f"{args.game} {args.variant}: {done['matches']} results, {done['bots']} bots, "
        f"{done['samples']} bootstrap samples (seed {done['seed']})"
    )
    names = store.ladders.page(
        args.game, args.variant, 0, max(store.ladders.size(args.game, args.variant), 1)
    )
    shown = {entry.bot_id: entry.name for entry in names.entries}
    for bot, fit in sorted(done["fits"].items(), key=lambda pair: -pair[1]["rating"]):
        print(f"  {shown.get(bot, bot):<24} {fit['rating']:7.1f}  [{fit['low']:.1f}, {fit['high']:.1f}]")
    return 0


def add_commands(commands: Any) -> None:
    """Add ``ratings`` to the ``arena`` command's subparsers."""
    ratings = commands.add_parser("ratings", help="batch work on ladders' ratings")
    sub = ratings.add_subparsers(dest="ratings_command", required=True, metavar="COMMAND")
    refit_parser = sub.add_parser(
        "refit",
        help="refit a ladder's results by maximum likelihood with bootstrap 95%% intervals (needs REDIS_URL)",
    )
    refit_parser.add_argument("game", help="game id")
    refit_parser.add_argument("variant", help="variant name")
    refit_parser.add_argument(
        "--samples",
        type=_count,
        default=DEFAULT_SAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_SAMPLES})",
    )
    refit_parser.add_argument("--seed", type=_count, default=0, help="seed of the resampling (default 0)")
    refit_parser.set_defaults(func=_refit)
    migrate_parser = sub.add_parser(
        "migrate",
        help="move ladders kept the old way (one hash per ladder) to the paged layout (needs REDIS_URL)",
    )
    migrate_parser.set_defaults(func=_migrate)
