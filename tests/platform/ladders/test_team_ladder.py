"""A team variant's ladder ranks bots by what they contribute, on real games: a round robin of
Boulderville (the engine and the reference bots, in-process) with two ``search``, two ``heuristic``
and two ``random`` bots, 4 seats, 4 games a pairing (60 games, 40 for each bot), fed to the ladder
as the worker feeds it. Both search bots rank above both random bots, sigma shrinks with games as
in two-seat games, and the batch refit (what ``arena ratings refit`` fits) ranks them alike."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from arena.cli.ratings_command import rankings
from arena.ladders import refit, rows, skill
from arena.records import GAME_ENTRANT
from arena.tournaments.formats import schedule
from bots.registry import make_bot
from referee.match import MatchSpec
from referee.registry import get_game
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent

GAME = "boulderville"
KINDS = {"s1": "search", "s2": "search", "h1": "heuristic", "h2": "heuristic", "r1": "random", "r2": "random"}


@cache
def played() -> tuple[list[dict[str, object]], list[dict[str, rows.Row]]]:
    """The round robin's results in play order, and the ladder rows after each game."""
    spec = get_game(GAME).variant(get_game(GAME).default_variant)
    ladder: dict[str, rows.Row] = {}
    results: list[dict[str, object]] = []
    history = []
    for number, planned in enumerate(schedule("round_robin", list(KINDS), 4, 4, seed=5)):
        match_spec = MatchSpec.build(game=GAME, bots=list(planned.bots), seed=planned.seed)
        players = [
            Player(bot, LocalAgent(make_bot(GAME, KINDS[bot], planned.seed + seat)))
            for seat, bot in enumerate(planned.bots)
        ]
        result = run_match(f"m{number}", match_spec, players).result
        ladder.update(rows.apply_result(ladder, spec, planned.bots, result, f"m{number}"))
        results.append(
            {"bots": list(planned.bots), "places": list(result.places), "team_won": result.team_won}
        )
        history.append({bot: dict(row) for bot, row in ladder.items()})
    return results, history


def conservative(row: rows.Row) -> float:
    return float(row["mu"]) - 3 * float(row["sigma"])


def test_both_search_bots_rank_above_both_random_bots_on_the_ladder() -> None:
    _, history = played()
    final = history[-1]
    assert all(final[bot]["games"] == 40 for bot in KINDS)
    for strong, weak in ((s, r) for s in ("s1", "s2") for r in ("r1", "r2")):
        assert conservative(final[strong]) > conservative(final[weak]), (strong, weak, final)


def two_seat_sigma(games: int) -> float:
    """A two-seat bot's sigma after ``games`` games won and lost in turn, in the same model."""
    skills: dict[str, skill.Skill] = {}
    for game in range(games):
        skills.update(skill.rate(skills, [["a"], ["b"]], [1, 2] if game % 2 else [2, 1]))
    return skills["a"].sigma


def test_sigma_shrinks_with_games_as_in_two_seat_games() -> None:
    _, history = played()
    first_games = {bot: next(after[bot]["sigma"] for after in history if bot in after) for bot in KINDS}
    halfway, final = history[len(history) // 2 - 1], history[-1]
    for bot in KINDS:
        assert first_games[bot] > halfway[bot]["sigma"] > final[bot]["sigma"]
        # the ladder had 6 after 40 games; a two-seat bot has 3.7, a 4-seat free-for-all one 4.5
        assert final[bot]["sigma"] < 1.5 * two_seat_sigma(40), (bot, final[bot]["sigma"])


def test_the_batch_refit_agrees_with_the_online_ranking() -> None:
    results, history = played()
    spec = get_game(GAME).variant(get_game(GAME).default_variant)
    strengths = refit.fit(rankings(results, spec))
    assert GAME_ENTRANT in strengths
    online = history[-1]
    by_refit = sorted(KINDS, key=lambda bot: -strengths[bot])
    by_online = sorted(KINDS, key=lambda bot: -conservative(online[bot]))
    assert set(by_refit[:2]) == set(by_online[:2]) == {"s1", "s2"}
    for a, b in combinations(KINDS, 2):
        apart = abs(conservative(online[a]) - conservative(online[b]))
        if apart > online[a]["sigma"] + online[b]["sigma"]:  # apart by more than the model's doubt
            assert (strengths[a] > strengths[b]) == (conservative(online[a]) > conservative(online[b])), (
                a,
                b,
            )
