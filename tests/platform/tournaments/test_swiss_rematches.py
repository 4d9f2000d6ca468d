"""Swiss pairing in pods avoids every rematch it can: the byes may go to any bot with the fewest
byes when that avoids one, and the pods repeat as few pairs as any pairing could (checked against
all pairings of small fields)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments.swiss import SwissRound, swiss_pairing


def repeats(pods: Sequence[Sequence[str]], history: Sequence[Sequence[str]]) -> int:
    """The pairs of ``pods`` that met in ``history``."""
    met = {frozenset(pair) for pod in history for pair in combinations(pod, 2)}
    return sum(frozenset(pair) in met for pod in pods for pair in combinations(pod, 2))


def partitions(bots: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    """Every way to cut ``bots`` into pods of ``size``."""
    if not bots:
        yield []
        return
    head, rest = bots[0], bots[1:]
    for mates in combinations(rest, size - 1):
        left = [bot for bot in rest if bot not in mates]
        for tail in partitions(left, size):
            yield [(head, *mates), *tail]


def fewest_repeats(
    bots: Sequence[str], size: int, history: Sequence[Sequence[str]], byes: Counter[str]
) -> int:
    """The fewest repeated pairs of any pairing whose byes go to bots with the fewest byes."""
    sitting_out = len(bots) % size
    best = None
    for chosen in combinations(bots, sitting_out):
        if not fewest_byes(chosen, bots, byes):
            continue
        playing = [bot for bot in bots if bot not in chosen]
        for pods in partitions(playing, size):
            count = repeats(pods, history)
            best = count if best is None else min(best, count)
    assert best is not None
    return best


def fewest_byes(chosen: Sequence[str], bots: Sequence[str], byes: Counter[str]) -> bool:
    """No bot sitting out has had more byes than a bot that plays."""
    playing = [byes[bot] for bot in bots if bot not in chosen]
    return not chosen or not playing or max(byes[bot] for bot in chosen) <= min(playing)


def test_a_bye_goes_to_another_bot_with_no_bye_when_that_avoids_a_rematch() -> None:
    bots = [f"b0{i}" for i in range(8)]
    history = [("b00", "b01", "b02"), ("b03", "b04", "b05")]
    points = {"b00": 1, "b03": 1, "b06": 1, "b07": 1}
    made = swiss_pairing(bots, 3, points, history, {"b06": 1, "b07": 1})
    assert repeats(made.pods, history) == 0
    assert not {"b06", "b07"} & set(made.byes)
    assert sorted([*made.byes, *(bot for pod in made.pods for bot in pod)]) == bots


def test_the_pairing_is_the_same_for_the_same_inputs() -> None:
    bots = [f"b{i:02d}" for i in range(13)]
    history = [tuple(bots[i : i + 4]) for i in range(0, 12, 4)]
    points = {bot: index % 3 for index, bot in enumerate(bots)}
    first = swiss_pairing(bots, 4, points, history, {"b12": 1})
    assert all(swiss_pairing(bots, 4, points, history, {"b12": 1}) == first for _ in range(3))


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], int, list[tuple[str, ...]], Counter[str], dict[str, int]]:
    """A small field, its pod size, and a history of random earlier rounds."""
    size = draw(st.integers(2, 4))
    count = draw(st.integers(size, {2: 8, 3: 9, 4: 9}[size]))
    bots = [f"b{i}" for i in range(count)]
    history: list[tuple[str, ...]] = []
    byes: Counter[str] = Counter()
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(bots))
        sitting_out = count % size
        byes.update(order[:sitting_out])
        playing = order[sitting_out:]
        history.extend(tuple(playing[i : i + size]) for i in range(0, len(playing), size))
    points = {bot: draw(st.integers(0, 3)) for bot in bots}
    return bots, size, history, byes, points


@settings(max_examples=150, deadline=None)
@given(events())
def test_the_pairing_repeats_as_few_pairs_as_any_and_byes_go_to_the_fewest_byes(
    event: tuple[list[str], int, list[tuple[str, ...]], Counter[str], dict[str, int]],
) -> None:
    bots, size, history, byes, points = event
    made: SwissRound = swiss_pairing(bots, size, points, history, byes)
    assert all(len(pod) == size for pod in made.pods)
    assert sorted([*made.byes, *(bot for pod in made.pods for bot in pod)]) == sorted(bots)
    assert len(made.byes) == len(bots) % size
    assert fewest_byes(made.byes, bots, byes)
    assert repeats(made.pods, history) == fewest_repeats(bots, size, history, byes)
