"""A knockout replaying tied pods, played end to end: the API, the Celery queue and worker thread of
the embedded platform on its in-memory Redis, bots over HTTP; and each replay made exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from arena.settings import Settings
from arena.tournaments import progress
from arena.tournaments.rounds import replays_due
from arena.worker.embedded import EmbeddedPlatform
from arena.worker.execution import execute
from referee.rng import derive_seed
from tests.platform.conftest import ADMIN, LOOPBACK, Arena, BotServer, register_bot
from tests.platform.waiting import wait_until

ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}


@pytest.fixture
def embedded(toy_games: None) -> Iterator[EmbeddedPlatform]:
    platform = EmbeddedPlatform(Settings(admin_token=ADMIN, policy=LOOPBACK), concurrency=2)
    yield platform
    platform.close()


def knockout_of_four(
    client: FlaskClient, bots: BotServer, **request: Any
) -> tuple[list[str], dict[str, Any]]:
    """Four Party bots entered in seed order (none rated yet): pods 1-4 and 2-3. ``/first`` picks 0
    and ``/last`` 2, so the first pod, two ``/first`` bots, is always drawn."""
    paths = ("/first/k1", "/last/k2", "/first/k3", "/first/k4")
    ids = [register_bot(client, bots, path, path, ["party"])["id"] for path in paths]
    body = {
        "name": "cup",
        "game": "party",
        "format": "knockout",
        "bots": ids,
        "seats_per_match": 2,
        "seed": 9,
    }
    answer = client.post("/api/v1/tournaments", json={**body, **request}, headers=ADMIN_HEADERS)
    assert answer.status_code == 202, answer.get_json()
    return ids, answer.get_json()


def test_a_forced_tie_is_replayed_through_the_queue_and_the_final_waits_for_it(
    embedded: EmbeddedPlatform, bots: BotServer
) -> None:
    client = create_app(embedded.runtime).test_client()
    ids, created = knockout_of_four(client, bots, pod_ties="replay")
    url = f"/api/v1/tournaments/{created['id']}"
    done = wait_until(
        lambda: (body := client.get(url).get_json())["winner"] is not None and body,
        60,
        "the knockout did not get a winner",
    )
    assert done["status"] == "finished" and done["winner"] == ids[1]
    first_round, final = done["rounds_made"]
    tied, other = first_round["matches"]
    replays = first_round["replays"][tied]
    by_id = {match["id"]: match for match in done["matches"]}
    assert [by_id[m]["result"]["places"] for m in (tied, *replays)] == [[1, 1]] * 3, "drawn every time"
    assert [by_id[m]["seed"] for m in replays] == [
        derive_seed(9, "round", 1, "pod", 0, "replay", number) for number in (1, 2)
    ]
    assert [by_id[m]["replay_of"] for m in replays] == [tied, tied]
    assert by_id[other]["replay_of"] is None and by_id[final["matches"][0]]["replay_of"] is None
    assert by_id[final["matches"][0]]["bots"] == [ids[0], ids[1]], "the better seed went on after two replays"
    shown = {m: client.get(f"/api/v1/matches/{m}").get_json() for m in (*replays, final["matches"][0])}
    assert shown[replays[-1]]["finished_at"] <= shown[final["matches"][0]]["created_at"], (
        "the final was made once the last replay had ended"
    )
    assert done["progress"] == {
        "done": 5,
        "total": 5,
        "finished": 5,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 0,
    }


def test_a_replay_is_made_once_whoever_asks(arena: Arena) -> None:
    ids, created = knockout_of_four(arena.client, arena.bots, pod_ties="replay")
    first_round = list(arena.queue.ids)
    arena.queue.ids.clear()
    for match_id in first_round:
        execute(arena.runtime, match_id)  # each end asks for what follows; the last makes the replay
    assert len(arena.queue.ids) == 1
    store = arena.runtime.store
    tournament = store.tournaments.get(created["id"])
    assert tournament is not None
    made = store.tournaments.rounds(created["id"])
    assert made[0]["replays"] == {first_round[0]: arena.queue.ids}
    assert progress.advance(arena.runtime, created["id"]) is False, "the replay has not ended"
    # a caller that read the round before the replay was stored owes it too: the mark stops it
    before = [{"matches": made[0]["matches"], "byes": made[0]["byes"]}]
    matches = {m.id: m for m in store.matches.get_many(first_round)}
    due = replays_due(tournament, before, matches)
    template = store.matches.spec(first_round[0])
    assert template is not None and len(due) == 1
    assert progress.make_replays(arena.runtime, tournament, due, template) == []
    assert store.tournaments.rounds(created["id"]) == made and len(arena.queue.ids) == 1


def test_a_knockout_between_its_rounds_reads_running_not_finished(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every match made so far has ended but the final is not stored yet: the moment a page that
    # read "finished" would stop following the tournament
    _ids, created = knockout_of_four(arena.client, arena.bots)
    first_round = list(arena.queue.ids)
    arena.queue.ids.clear()
    with monkeypatch.context() as patched:
        patched.setattr(progress, "advance", lambda runtime, tournament_id: False)
        for match_id in first_round:
            execute(arena.runtime, match_id)
    path = f"/api/v1/tournaments/{created['id']}"
    between = arena.client.get(path).get_json()
    assert between["progress"]["done"] == between["progress"]["total"] == 2
    assert between["status"] == "running" and between["winner"] is None
    progress.advance(arena.runtime, created["id"])
    (final,) = arena.queue.ids
    execute(arena.runtime, final)
    after = arena.client.get(path).get_json()
    assert after["status"] == "finished" and after["winner"] is not None
