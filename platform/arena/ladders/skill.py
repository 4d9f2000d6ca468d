"""Skill ratings with uncertainty, updated after every rated match: the Plackett-Luce model of
Weng and Lin (2011), as the ``openskill`` package implements it.

Each bot has a skill ``mu`` and an uncertainty ``sigma`` (the standard deviation of what the model
believes of ``mu``); a new bot starts at mu 25, sigma 25/3. A ladder ranks by the conservative
estimate ``mu - 3 sigma``: a bot is shown high only once the model is fairly sure it is strong, so
one lucky win does not put a newcomer on top.

Which results move skills (:func:`match_evidence`), in the words of the ladder's rules:

- only variants declared ``rated``, and never a match where one bot holds several seats;
- a plain variant is a free-for-all: every seat is a team of one, ranked by its place (shared
  places are ties); a single seat tells nothing and is not rated;
- a team variant's match is two pieces of evidence, each one update of the model, in this order:

  1. **the team's result**: all the seats as one team playing the game itself, ranked first when
     it won (``team_won``) and second when it lost. The game is a virtual entrant of that ladder,
     :data:`GAME_ENTRANT`, with a skill of its own that the results move too (how hard the game is
     for bots of this ladder), never shown as a ladder row. The model adds up a team's ``mu`` and
     shares the result's surprise among the members by their uncertainty: over many games with
     different partners, a bot whose teams win more than its partners' skills explain rises;
  2. **the game's own ranking inside a won game**: the seats as a free-for-all by their places
     (the game's own order: the most renowned player first), when the places are not all shared. This is
     what a bot contributed in the game's own terms, the evidence that separates partners of one
     team; a lost game ranks nobody (its seats share every place), so it is the team's alone.

  Why this model: with the team's result alone (TrueSkill's and openskill's team model, as the
  ladder had it) every seat of a game gets the same evidence, and with four seats drawn from a
  small field the partners' share is never untangled: a random bot beside strong partners rose
  with them, and sigma hardly shrank. Bridge partner ratings and Kaggle's team leaderboards face the
  same problem and solve it with many partners or with per-player evidence; a team game that ranks
  its players (renown) gives that evidence in every won game, so the ladder uses it.

The same pieces of evidence are what :mod:`arena.ladders.refit` fits in one batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from arena.records import GAME_ENTRANT
from referee.game import VariantSpec


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the model is about 99.9% sure the skill is at least this."""
        return self.mu - 3.0 * self.sigma


@cache
def model(tau: float | None = None) -> PlackettLuce:
    """The Plackett-Luce model with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).

    ``tau`` (the skill drift added to sigma before each match, so sigma never collapses to zero)
    can be set, e.g. to 0 to reproduce the examples openskill published before it had a default.
    """
    return PlackettLuce() if tau is None else PlackettLuce(tau=tau)


def start() -> Skill:
    default = model()
    return Skill(float(default.mu), float(default.sigma))


Teams = list[list[str]]


Evidence = tuple[Teams, list[int]]
"""One update of the model: teams and their ranks (1 best, ties equal)."""


def match_evidence(
    spec: VariantSpec, bots: Sequence[str], places: Sequence[int], team_won: bool | None
) -> list[Evidence]:
    """The pieces of evidence a result is rated as, in the order they are applied; empty when it
    moves no skill.

    ``bots`` are the bot ids by seat and ``places`` the seats' places (see the module's rules).
    """
    if not spec.rated or not bots or len(set(bots)) != len(bots):
        return []
    solo: Evidence = ([[bot] for bot in bots], list(places))
    if spec.team:
        team: Evidence = ([list(bots), [GAME_ENTRANT]], [1, 2] if team_won is True else [2, 1])
        ranked_inside = team_won is True and len(bots) > 1 and len(set(places)) > 1
        return [team, solo] if ranked_inside else [team]
    if len(bots) < 2:
        return []
    return [solo]


def rate(
    skills: Mapping[str, Skill], teams: Teams, ranks: Sequence[int], tau: float | None = None
) -> dict[str, Skill]:
    """Every member's skill after one match; members missing from ``skills`` start anew."""
    pl = model(tau)
    fresh = start()
    rated = pl.rate(
        [
            [pl.rating(mu=skills.get(m, fresh).mu, sigma=skills.get(m, fresh).sigma) for m in team]
            for team in teams
        ],
        ranks=[float(rank) for rank in ranks],
    )
    return {
        member: Skill(float(after.mu), float(after.sigma))
        for team, team_after in zip(teams, rated, strict=True)
        for member, after in zip(team, team_after, strict=True)
    }
