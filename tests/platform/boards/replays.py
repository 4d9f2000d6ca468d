"""Replays of seeded random games, played through the real runner, for the board tests."""

from __future__ import annotations

from functools import cache
from typing import Any
from xml.etree import ElementTree

from bots.base import RandomBot
from referee.game import State
from referee.match import MatchSpec
from referee.registry import get_game
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent

SVG = "{http://www.w3.org/2000/svg}"
GAMES: dict[str, tuple[str, int]] = {
    "vulkan": ("competitive", 3),
    "volcano": ("fiesta-caldera", 2),
    "catan-volcano": ("gold", 4),
    "boulderville": ("standard", 4),
}
"""Game id to the variant and seat count of its test replay."""


@cache
def _replay(game_id: str, seed: int) -> dict[str, Any]:
    variant, seats = GAMES[game_id]
    spec = MatchSpec.build(
        game=game_id, variant=variant, bots=[f"random-{s}" for s in range(seats)], seed=seed
    )
    players = [Player(f"random-{s}", LocalAgent(RandomBot(seed * 10 + s))) for s in range(seats)]
    document: dict[str, Any] = run_match(f"boards-{game_id}-{seed}", spec, players).to_json()
    return document


def replay(game_id: str, seed: int = 11) -> dict[str, Any]:
    """A finished random game's replay document (made once per game and seed, shared read-only)."""
    return _replay(game_id, seed)


def replayed_by_hand(document: dict[str, Any], moves: int) -> State:
    """The position after ``moves`` moves, by starting the game and applying each recorded move."""
    state = get_game(document["game"]).start(
        document["variant"],
        seats=len(document["seats"]),
        seed=document["seed"],
        options=document["options"],
        setup=document["setup"],
    )
    for record in document["moves"][:moves]:
        state.apply(record["move"])
    return state


def middle(document: dict[str, Any]) -> State:
    return replayed_by_hand(document, len(document["moves"]) // 2)


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def with_class(root: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    """Every element whose class list holds ``name``."""
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root: ElementTree.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text")]
