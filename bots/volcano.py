"""Reference bots for Volcano: ``random``, ``greedy`` and ``search`` (:mod:`bots.volcano_search`).

``greedy`` looks one eruption ahead. It scores every legal move by what the eruption it would set
off does for its own collection; a step that erupts nothing is worth a share of the best capture it
opens for its own next step; a Power Play is worth the capture it makes possible, less the piece
given back. A collection's worth rewards trios, single-colour trios most, and pieces that start
them. Against each move it counts the next seat's best one-step reply on the board the move leaves,
by default only when that reply would win the game: ``docs/games/volcano.md`` gives the measurements
behind that choice (a penalty for every reply made the bot weaker, since the next seat may step
caps freely before it erupts and finds captures anyway).

>>> from referee.volcano import GAME
>>> state = GAME.start("fiesta-caldera", seats=2, seed=3)
>>> request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves()}
>>> GreedyBot(1).choose(request) in request["legal_moves"]
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bots.base import BotFactory, Move, RandomBot, Request
from referee.game import canonical_json
from referee.rng import Rng, derive_seed
from referee.volcano.board import RAYS, Board, parse_square, square_json
from referee.volcano.eruption import can_step, preview_flow, step_cap
from referee.volcano.pieces import SIZES, Colour, Piece
from referee.volcano.trios import Trios, winning_reason

Holding = Counter[Piece]

WIN_WORTH = 1000.0
SINGLE_COLOUR_TRIO_WORTH = 10.0
TRIO_WORTH = 6.0
COLOUR_START_WORTH = 2.0
"""Each distinct size held of a colour: the start of a single-colour trio."""
PIECE_WORTH = 1.0
NEXT_SEAT_SHARE = 0.7
"""The share of the next seat's best reply counted against a move by the ``"any"`` penalty."""
FOLLOW_UP_SHARE = 0.8
"""How much of the best eruption a quiet step opens counts for that step (the board may still change)."""
QUIET_STEP_COST = 0.05
"""A little against steps that erupt nothing, so that a harmless eruption beats wandering."""

REPLY_PENALTIES: dict[str, Callable[[float], float] | None] = {
    "win": lambda best: best if best >= WIN_WORTH / 2 else 0.0,
    "any": lambda best: NEXT_SEAT_SHARE * best,
    "none": None,
}
"""How the next seat's best one-step reply (its gain in worth) counts against a move."""

_BY_COLOUR: tuple[tuple[Piece, ...], ...] = tuple(tuple(Piece(c, s) for s in SIZES) for c in Colour)


def trios_of(held: Holding) -> Trios:
    """:func:`referee.volcano.trios.count_trios` on a held count, which the bot updates cheaply."""
    by_size = [0, 0, 0, 0]
    for piece, count in held.items():
        by_size[piece.size] += count
    single = sum(min(held.get(piece, 0) for piece in pieces) for pieces in _BY_COLOUR)
    return Trios(single, min(by_size[1:]))


def worth(held: Holding) -> float:
    """How good a collection is: a win, else trios, single-colour starts and pieces."""
    trios = trios_of(held)
    if winning_reason(trios) is not None:
        return WIN_WORTH
    starts = sum(1 for piece, count in held.items() if count > 0)
    return (
        SINGLE_COLOUR_TRIO_WORTH * trios.single_colour
        + TRIO_WORTH * trios.any_colour
        + COLOUR_START_WORTH * starts
        + PIECE_WORTH * sum(held.values())
    )


def gain(held: Holding, captured: Iterable[Piece], given_back: Piece | None = None) -> float:
    """What capturing these pieces (after giving one back) adds to a collection's worth."""
    after = held.copy()
    after.update(captured)
    if given_back is not None:
        after[given_back] -= 1
    return worth(after) - worth(held)


def cap_steps(board: Board) -> list[tuple[int, str]]:
    return [(origin, d) for origin in board.cap_squares() for d in RAYS[origin] if can_step(board, origin, d)]


def best_capture(board: Board, held: Holding) -> float:
    """The most one step on this board could add to ``held`` (0 when no step captures)."""
    best = 0.0
    seen: set[tuple[Piece, ...]] = set()
    for origin, direction in cap_steps(board):
        flow, _ = preview_flow(board, origin, direction)
        captured = tuple(sorted(landing.piece for landing in flow if landing.captured))
        if captured and captured not in seen:
            seen.add(captured)
            best = max(best, gain(held, captured))
    return best


@dataclass
class Table:
    """The position as the greedy bot reads it from an observation."""

    board: Board
    mine: Holding
    next_seat: Holding
    steps_left: int
    power_play_open: bool
    reply_penalty: Callable[[float], float] | None

    @classmethod
    def read(cls, request: Request, reply_penalty: Callable[[float], float] | None) -> Table:
        observation = request["observation"]
        seat = request["seat"]
        seats = len(observation["captures"])
        holdings = [Counter(Piece.from_json(p) for p in held) for held in observation["captures"]]
        return cls(
            board=Board.from_json(observation["board"], "observation.board"),
            mine=holdings[seat],
            next_seat=holdings[(seat + 1) % seats],
            steps_left=observation["options"]["step_limit"] - observation["steps_this_turn"],
            power_play_open=any(move["type"] == "power_play" for move in request["legal_moves"]),
            reply_penalty=reply_penalty,
        )

    def reply_risk(self, after: Board) -> float:
        """What the next seat's best one-step reply on ``after`` counts against the move."""
        if self.reply_penalty is None:
            return 0.0
        return self.reply_penalty(best_capture(after, self.next_seat))

    def eruption_score(
        self, origin: int, direction: str, board: Board | None = None, given_back: Piece | None = None
    ) -> float:
        """Own gain of an erupting step (after a Power Play of ``given_back``), less the reply risk."""
        after = (board or self.board).copy()
        eruption = step_cap(after, origin, direction)
        own = gain(self.mine, eruption.captured, given_back)
        if own >= WIN_WORTH / 2:
            return own
        return own - self.reply_risk(after)

    def quiet_score(self, origin: int, direction: str) -> float:
        """A step that erupts nothing: worth a share of the best capture it opens for the next step,
        less the reply risk on that board (only that, when the step ends the turn as a pass)."""
        after = self.board.copy()
        step_cap(after, origin, direction)
        risk = self.reply_risk(after)
        if self.steps_left <= 1:
            return -risk
        return FOLLOW_UP_SHARE * best_capture(after, self.mine) - QUIET_STEP_COST - risk

    def step_score(self, move: Move) -> float:
        origin = parse_square(move["from"])
        assert origin is not None
        flow, _ = preview_flow(self.board, origin, move["dir"])
        if flow:
            return self.eruption_score(origin, move["dir"])
        return self.quiet_score(origin, move["dir"])

    def power_play_scores(self) -> dict[tuple[Piece, int], float]:
        """Power Plays that turn a landing into a capture, scored with the eruption they enable."""
        scores: dict[tuple[Piece, int], float] = {}
        for origin, direction in cap_steps(self.board):
            flow, _ = preview_flow(self.board, origin, direction)
            for landing in flow:
                if landing.captured:
                    continue
                for piece in sorted(self.mine, key=Piece.sort_key):
                    if self.mine[piece] and piece.size == landing.piece.size:
                        after = self.board.copy()
                        after.stacks[landing.square].append(piece)
                        score = self.eruption_score(origin, direction, after, given_back=piece)
                        key = (piece, landing.square)
                        scores[key] = max(scores.get(key, score), score)
        return scores


class GreedyBot:
    """One-eruption lookahead that will not hand the next seat a win; seeded tie-breaks.

    ``reply_penalty`` names one of :data:`REPLY_PENALTIES`; the benchmark compares them.
    """

    def __init__(self, seed: int, reply_penalty: str = "win") -> None:
        self.rng = Rng(derive_seed(seed, "volcano-greedy"))
        self.reply_penalty = REPLY_PENALTIES[reply_penalty]

    def choose(self, request: Request) -> Move:
        table = Table.read(request, self.reply_penalty)
        scored: list[tuple[float, Move]] = [
            (table.step_score(move), move) for move in request["legal_moves"] if move["type"] == "step"
        ]
        if table.power_play_open:
            legal = {canonical_json(move) for move in request["legal_moves"]}
            for (piece, square), score in table.power_play_scores().items():
                move = {"type": "power_play", "piece": piece.to_json(), "to": square_json(square)}
                if canonical_json(move) in legal:
                    scored.append((score, move))
        best = max(score for score, _ in scored)
        return self.rng.choice([move for score, move in scored if score >= best - 1e-9])


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}
"""This module's bots; ``search`` is in :mod:`bots.volcano_search`, which builds on greedy here
(:mod:`bots.registry` lists both modules)."""
