"""``/api/v1/matches``: organizer auth, checks before queueing, status, result, replay, ladder."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from arena.matches.moves import match_moves, with_words
from arena.records import MatchStatus
from referee.registry import get_game
from referee.replay import verify_replay
from tests.platform.conftest import Arena

ERROR_KEYS = {"code", "status", "message", "errors"}


@pytest.fixture
def duelists(arena: Arena) -> tuple[dict, dict]:
    return arena.register("First", "/first/1", ["nim", "party"]), arena.register("Last", "/last/1", ["nim"])


def test_creating_a_match_needs_the_organizer_token(arena: Arena, duelists) -> None:
    first, last = duelists
    request = {"game": "nim", "bots": [first["id"], last["id"]]}
    stranger = arena.register("stranger", "/first/stranger", ["nim"])
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": f"Bearer {stranger['token']}"}):
        answer = arena.client.post("/api/v1/matches", json=request, headers=headers)
        assert answer.status_code == 401
        assert set(answer.get_json()) == ERROR_KEYS and "organizer" in answer.get_json()["message"]
    # a seated bot's own token asks for a challenge, which is never rated
    rated = arena.client.post(
        "/api/v1/matches",
        json={**request, "rated": True},
        headers={"Authorization": f"Bearer {first['token']}"},
    )
    assert rated.status_code == 422 and "rated" in rated.get_json()["errors"]
    assert arena.queue.ids == []


def test_a_match_is_queued_then_played_and_its_result_stored(arena: Arena, duelists) -> None:
    first, last = duelists
    answer = arena.client.post(
        "/api/v1/matches",
        json={"game": "nim", "bots": [first["id"], last["id"]], "seed": 4, "options": {"stones": 5}},
        headers=arena.admin(),
    )
    assert answer.status_code == 202
    match = answer.get_json()
    assert answer.headers["Location"].endswith(f"/api/v1/matches/{match['id']}")
    assert match["status"] == "queued" and match["variant"] == "standard" and match["origin"] == "organizer"
    assert match["options"] == {"stones": 5} and match["time"] == {"move_ms": 2000, "bank_ms": 0}
    assert [seat["name"] for seat in match["seats"]] == ["First", "Last"]
    assert match["result"] is None and match["replay_url"] is None
    assert arena.queue.ids == [match["id"]]

    assert [outcome.value for outcome in arena.run_queue()] == ["finished"]
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "finished" and done["attempts"] == 1
    # 5 stones: First takes 1 (4 left), Last takes 3 (1 left), First takes the last one
    assert done["moves"] == 3
    assert done["result"]["places"] == [1, 2] and done["result"]["reason"] == "last_stone_taken"
    assert [seat["faults"] for seat in done["seats"]] == [0, 0]
    assert done["replay_url"] == f"/api/v1/matches/{match['id']}/replay"


def test_the_replay_downloads_as_a_json_attachment_that_verifies(arena: Arena, duelists) -> None:
    first, last = duelists
    match = arena.match(game="nim", bots=[last["id"], first["id"]], seed=1)
    assert arena.client.get(f"/api/v1/matches/{match['id']}/replay").status_code == 404
    arena.run_queue()
    answer = arena.client.get(f"/api/v1/matches/{match['id']}/replay")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="{match["id"]}.json"'
    replay = json.loads(answer.data)
    assert replay["match_id"] == match["id"] and replay["format"] == "arena-replay/1"
    assert [seat["bot_id"] for seat in replay["seats"]] == [last["id"], first["id"]]
    assert verify_replay(replay) == []


def test_the_referee_signs_with_the_bots_secret(arena: Arena, duelists) -> None:
    first, last = duelists
    arena.bots.secrets["/last/1"] = "not the secret the platform holds"
    match = arena.match(game="nim", bots=[first["id"], last["id"]], max_faults=2)
    arena.run_queue()
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["seats"][1]["faults"] == 2 and done["seats"][1]["forfeited"] is True
    assert done["seats"][0]["faults"] == 0
    bot = arena.get(f"/api/v1/bots/{last['id']}")
    assert bot["faults"] == {"total": 3, "by_kind": {"http_status": 2, "forfeit": 1}}


def test_a_finished_rated_match_updates_the_ladder_and_the_bots_ratings(arena: Arena, duelists) -> None:
    first, last = duelists
    arena.match(game="nim", bots=[first["id"], last["id"]], options={"stones": 1})
    arena.run_queue()
    ladder = arena.get("/api/v1/ladders/nim")
    assert ladder["variant"] == "standard" and ladder["rated"] is True
    assert ladder["ranked_by"] == "conservative"
    assert [(e["rank"], e["name"], e["rating"], e["wins"], e["losses"]) for e in ladder["entries"]] == [
        (1, "First", 1520.0, 1, 0),
        (2, "Last", 1480.0, 0, 1),
    ]
    (rating,) = arena.get(f"/api/v1/bots/{first['id']}")["ratings"]
    assert (rating["game"], rating["variant"], rating["rating"], rating["games"]) == (
        "nim",
        "standard",
        1520.0,
        1,
    )


def test_an_unrated_match_never_touches_the_ladder(arena: Arena, duelists) -> None:
    first, last = duelists
    match = arena.match(game="nim", bots=[first["id"], last["id"]], rated=False)
    arena.run_queue()
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "finished"
    assert arena.get("/api/v1/ladders/nim")["entries"] == []
    assert arena.get(f"/api/v1/bots/{first['id']}")["ratings"] == []


@pytest.mark.parametrize(
    ("request_body", "errors"),
    [
        ({"game": "chess"}, {"game": ["unknown game 'chess' (games: "]}),
        ({"variant": "blitz"}, {"variant": ["game nim has no variant 'blitz'"]}),
        ({"options": {"stones": 0}}, {"options": {"stones": ["options.stones must be at least 1"]}}),
        ({"options": {"colour": "red"}}, {"options": ["unknown option(s) for variant standard: colour"]}),
        ({"setup": {"stones": -1}}, {"setup": {"stones": ["setup.stones must be a positive integer"]}}),
        ({"time": {"move_ms": 0}}, {"time": {"move_ms": ["Must be greater than or equal to 1"]}}),
        ({"seed": -5}, {"seed": ["Must be greater than or equal to 0"]}),
        ({"rated": "maybe"}, {"rated": ["Not a valid boolean."]}),
    ],
)
def test_invalid_requests_are_refused_with_field_messages(
    arena: Arena, duelists, request_body, errors
) -> None:
    first, last = duelists
    body = {"game": "nim", "bots": [first["id"], last["id"]], **request_body}
    answer = arena.client.post("/api/v1/matches", json=body, headers=arena.admin())
    assert answer.status_code == 422
    got = answer.get_json()
    assert set(got) == ERROR_KEYS

    def starts(expected, actual) -> None:
        if isinstance(expected, dict):
            assert set(expected) == set(actual)
            for key in expected:
                starts(expected[key], actual[key])
        else:
            assert len(actual) == len(expected) and all(
                a.startswith(e) for e, a in zip(expected, actual, strict=True)
            )

    starts(errors, got["errors"])
    assert arena.queue.ids == [] and arena.get("/api/v1/matches") == []


def test_bots_must_exist_and_play_the_game_and_seats_must_fit(arena: Arena, duelists) -> None:
    first, last = duelists
    answer = arena.client.post(
        "/api/v1/matches",
        json={"game": "party", "bots": [first["id"], last["id"], "b-nobody"]},
        headers=arena.admin(),
    )
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == {
        "bots": {
            "1": [f"bot '{last['id']}' (Last) does not play party"],
            "2": ["no bot with id 'b-nobody'"],
        }
    }
    answer = arena.client.post(
        "/api/v1/matches", json={"game": "nim", "bots": [first["id"]]}, headers=arena.admin()
    )
    assert answer.get_json()["errors"] == {"bots": ["variant standard is played by 2, 3 seats, not 1"]}


def test_unknown_match_is_404(arena: Arena) -> None:
    for url in ("/api/v1/matches/m-none", "/api/v1/matches/m-none/replay"):
        answer = arena.client.get(url)
        assert answer.status_code == 404 and set(answer.get_json()) == ERROR_KEYS


def test_matches_are_listed_newest_first(arena: Arena, duelists) -> None:
    first, last = duelists
    ids = [arena.match(game="nim", bots=[first["id"], last["id"]], seed=n)["id"] for n in range(3)]
    assert [m["id"] for m in arena.get("/api/v1/matches")] == ids[::-1]
    assert [m["id"] for m in arena.get("/api/v1/matches?page_size=2")] == ids[:0:-1]
    second = arena.client.get("/api/v1/matches?page_size=2&page=2")
    assert [m["id"] for m in second.get_json()] == ids[:1]
    assert json.loads(second.headers["X-Pagination"])["total"] == 3
    assert arena.client.get("/api/v1/matches?page_size=0").status_code == 422
    assert arena.client.get("/api/v1/matches?limit=2").status_code == 422  # not a parameter of this list


def test_a_broken_queue_aborts_the_match_and_answers_503(arena: Arena, duelists) -> None:
    first, last = duelists

    def refuse(match_id: str) -> None:
        raise ConnectionError("broker down")

    arena.queue.enqueue = refuse  # type: ignore[method-assign]
    answer = arena.client.post(
        "/api/v1/matches", json={"game": "nim", "bots": [first["id"], last["id"]]}, headers=arena.admin()
    )
    assert answer.status_code == 503 and set(answer.get_json()) == ERROR_KEYS
    assert answer.headers["Retry-After"] == "5"
    (match,) = arena.get("/api/v1/matches")
    assert match["status"] == "aborted" and "could not be queued" in match["error"]


def test_a_wrong_seat_count_and_a_missing_bot_are_both_reported(arena: Arena) -> None:
    answer = arena.client.post(
        "/api/v1/matches", json={"game": "nim", "bots": ["b-x"]}, headers=arena.admin()
    )
    assert answer.get_json()["errors"] == {
        "bots": {
            "0": ["no bot with id 'b-x'"],
            "_schema": ["variant standard is played by 2, 3 seats, not 1"],
        }
    }


def test_the_token_is_checked_before_the_body(arena: Arena) -> None:
    """Without the organizer token nobody learns what a valid request would need."""
    for url in ("/api/v1/matches", "/api/v1/tournaments"):
        answer = arena.client.post(url, json={"nonsense": True})
        assert answer.status_code == 401, url
    alice = arena.register("Alice", "/first/a", ["nim"])
    answer = arena.client.patch(f"/api/v1/bots/{alice['id']}", json={"nonsense": True})
    assert answer.status_code == 401


def test_matches_are_filtered_by_bot_game_variant_and_status_a_page_at_a_time(arena: Arena, duelists) -> None:
    first, last = duelists
    third = arena.register("third", "/first/third", ["nim", "party"])
    nim = [arena.match(game="nim", bots=[first["id"], last["id"]], seed=n)["id"] for n in range(3)]
    other = arena.match(game="nim", bots=[third["id"], last["id"]], seed=9)["id"]
    party = arena.match(game="party", variant="crew", bots=[third["id"], third["id"]], seed=1)["id"]

    def ids(query: str) -> list[str]:
        return [m["id"] for m in arena.get(f"/api/v1/matches?{query}&page_size=100")]

    assert ids(f"bot={first['id']}") == nim[::-1]
    assert ids(f"bot={third['id']}") == [party, other]
    assert ids("game=party") == [party]
    assert ids("game=party&variant=crew") == [party] and ids("game=party&variant=open") == []
    # a variant alone is that variant of any game; one no game has matches nothing, as any filter
    assert ids("variant=crew") == [party] and ids("variant=standard") == [other, *nim[::-1]]
    assert ids("variant=0") == [] and ids("game=0") == [] and ids("bot=0") == []
    assert ids(f"variant=standard&bot={third['id']}") == [other]
    assert ids(f"bot={last['id']}&game=nim") == [other, *nim[::-1]]
    assert ids("status=queued") == [party, other, *nim[::-1]]
    arena.run_queue()
    assert ids("status=queued") == [] and ids("status=running") == []
    assert set(ids("status=finished")) == {*nim, other, party}
    assert ids(f"status=finished&bot={third['id']}&game=nim") == [other]
    page = arena.client.get(f"/api/v1/matches?bot={last['id']}&page_size=2&page=2")
    assert [m["id"] for m in page.get_json()] == nim[1::-1]
    assert json.loads(page.headers["X-Pagination"])["total"] == 4
    for bad in ("status=done", "variant=", "bot=", "colour=red"):  # each refused by the document
        answer = arena.client.get(f"/api/v1/matches?{bad}")
        assert answer.status_code == 422, bad
        assert answer.get_json()["errors"], bad


def test_a_request_cannot_set_the_records_own_fields(arena: Arena, duelists) -> None:
    """The match schema asks for a match and shows it: fields only the record has are refused."""
    first, last = duelists
    request = {"game": "nim", "bots": [first["id"], last["id"]], "seed": 4}
    sneaked = {"id": "m-mine", "status": "finished", "moves": 3, "replay_url": "/elsewhere"}
    answer = arena.client.post("/api/v1/matches", json={**request, **sneaked}, headers=arena.admin())
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == dict.fromkeys(sneaked, ["Unknown field."])
    assert arena.queue.ids == []
    shown = arena.match(**request)
    assert {key: shown[key] for key in request} == request
    assert shown["status"] == "queued" and shown["id"] != "m-mine" and shown["replay_url"] is None
    assert "created_ts" not in shown and "names" not in shown


def test_a_record_stored_before_origins_were_kept_reads_as_the_tournaments_or_the_organizers() -> None:
    from arena.records import MatchOrigin, MatchRecord

    stored = MatchRecord.new("m-1", "nim", "standard", ("b-1", "b-2"), ("A", "B"), rated=True).to_json()
    del stored["origin"]
    assert MatchRecord.from_json(stored).origin is MatchOrigin.ORGANIZER
    assert MatchRecord.from_json({**stored, "tournament": "t-1"}).origin is MatchOrigin.TOURNAMENT
    challenge = MatchRecord.new(
        "m-2", "nim", "standard", ("b-1",), ("A",), rated=False, origin=MatchOrigin.CHALLENGE
    )
    assert MatchRecord.from_json(challenge.to_json()) == challenge


def test_requests_are_read_with_schemas_built_once_not_per_request(arena: Arena, duelists) -> None:
    # webargs builds an instance of a schema class for every request, deep-copying its fields: a
    # fifth of a match request's CPU; the blueprints hand it instances built at start-up
    from marshmallow import Schema

    first, last = duelists
    built: list[str] = []
    original = Schema.__init__

    def counting(self: Schema, *args: object, **kwargs: object) -> None:
        built.append(type(self).__name__)
        original(self, *args, **kwargs)

    request = {"game": "nim", "bots": [first["id"], last["id"]]}

    def requests() -> None:
        answer = arena.client.post("/api/v1/matches", json=request, headers=arena.admin())
        assert answer.status_code == 202
        assert arena.client.get("/api/v1/matches?game=nim").status_code == 200

    requests()  # the answers' nested schemas are built on first use, and kept
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Schema, "__init__", counting)
        for _ in range(2):
            requests()
    # flask-smorest's paging builds its own two small schemas for every paged request
    assert [name for name in built if not name.startswith("Pagination")] == []


def test_a_finished_matchs_moves_come_with_their_words_beside_the_json(arena: Arena, duelists) -> None:
    first, last = duelists
    match = arena.match(game="nim", bots=[first["id"], last["id"]], seed=4, options={"stones": 5})
    queued = arena.get(f"/api/v1/matches/{match['id']}/moves")
    assert queued == {"match_id": match["id"], "status": "queued", "start": 0, "moves": None}
    arena.run_queue()
    shown = arena.get(f"/api/v1/matches/{match['id']}/moves")
    replay = json.loads(arena.client.get(f"/api/v1/matches/{match['id']}/replay").data)
    assert shown["status"] == "finished" and len(shown["moves"]) == len(replay["moves"]) == 3
    nim = get_game("nim")
    for move, kept in zip(shown["moves"], replay["moves"], strict=True):
        assert move == {**kept, "words": nim.describe_move(kept["move"])}
    assert "words" not in replay["moves"][0]  # the download stays the stored document
    assert arena.get(f"/api/v1/matches/{match['id']}/moves?start=2")["moves"] == shown["moves"][2:]
    assert arena.client.get(f"/api/v1/matches/{match['id']}/moves?start=-1").status_code == 422


def test_a_running_matchs_moves_so_far_are_worded(arena: Arena, duelists) -> None:
    first, last = duelists
    match = arena.match(game="nim", bots=[first["id"], last["id"]])
    live = {"turn": 0, "seat": 0, "move": {"take": 1}, "source": "bot", "fault": None, "think_ms": 3.0}
    arena.runtime.store.progress.append_live({match["id"]: ([live], 1)})
    record = arena.runtime.store.matches.get(match["id"])
    running = replace(record, status=MatchStatus.RUNNING)
    assert match_moves(arena.runtime, running, 0) == [{**live, "words": '{"take":1}'}]
    assert match_moves(arena.runtime, running, 1) == []


def test_words_and_what_a_faulty_bot_sent_read_by_the_games_notation() -> None:
    fault = {"kind": "illegal_move", "detail": "x", "sent": '{"type":"volcano","tile":[-2,0]}'}
    moves = [
        {"turn": 0, "seat": 0, "move": {"type": "volcano", "tile": [-2, 0]}, "fault": None},
        {"turn": 1, "seat": 1, "move": {"type": "volcano", "tile": [-2, 0]}, "fault": fault},
    ]
    worded = with_words("vulkan", moves)
    assert [move["words"] for move in worded] == ["volcano at -2,0"] * 2
    assert worded[1]["fault"] == {**fault, "sent_words": "volcano at -2,0"}
    assert "words" not in moves[0]  # the records given are left as they were


def test_a_lost_team_game_shows_no_winner_in_match_lists_and_a_won_one_says_so(arena: Arena) -> None:
    low = [arena.register(f"low{n}", f"/first/low{n}", ["party"])["id"] for n in range(2)]
    high = [arena.register(f"high{n}", f"/last/high{n}", ["party"])["id"] for n in range(2)]
    lost = arena.match(game="party", variant="crew", bots=low, seed=1)["id"]
    won = arena.match(game="party", variant="crew", bots=high, seed=1)["id"]
    arena.run_queue()
    assert arena.get(f"/api/v1/matches/{lost}")["result"]["team_won"] is False
    page = arena.client.get("/matches").get_data(as_text=True)

    def row(match_id: str) -> str:
        start = page.index(f'data-match-id="{match_id}"')
        return page[start : page.index("</tr>", start)]

    assert "team lost" in row(lost) and "winner" not in row(lost) and "(1)" not in row(lost)
    assert "team won" in row(won) and "winner" in row(won)
    match_page = arena.client.get(f"/matches/{lost}").get_data(as_text=True)
    assert 'class="winner"' not in match_page and "the team lost" in match_page
