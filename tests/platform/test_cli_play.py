"""``arena play`` and ``arena replay verify``: whole matches in-process, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.misbehaving_bots import SECRET, start_server

pytestmark = pytest.mark.usefixtures("nim_registered")


@pytest.fixture
def nim_bots(monkeypatch: pytest.MonkeyPatch):
    """Reference bots for the Nim test game: ``random`` only."""
    from bots import registry
    from bots.base import RandomBot

    monkeypatch.setattr(
        registry, "bots_for", lambda game_id: {"random": RandomBot} if game_id == "nim" else {}
    )


@pytest.mark.usefixtures("nim_bots")
def test_play_prints_the_result_and_writes_a_replay_that_verifies(tmp_path: Path, capsys) -> None:
    replay_path = tmp_path / "out.json"
    code = main(["play", "nim", "--bots", "random,random", "--seed", "7", "--replay", str(replay_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "nim / standard, seed 7" in out and "last_stone_taken" in out
    replay = json.loads(replay_path.read_text())
    assert replay["seed"] == 7 and [s["name"] for s in replay["seats"]] == ["random", "random"]
    assert main(["replay", "verify", str(replay_path)]) == 0
    assert "result matches" in capsys.readouterr().out


@pytest.mark.usefixtures("nim_bots")
def test_a_tampered_replay_fails_verification_saying_where(tmp_path: Path, capsys) -> None:
    replay_path = tmp_path / "out.json"
    assert main(["play", "nim", "--bots", "random,random", "--replay", str(replay_path)]) == 0
    replay = json.loads(replay_path.read_text())
    replay["moves"][2]["move"] = {"take": 42}
    replay_path.write_text(json.dumps(replay))
    capsys.readouterr()
    assert main(["replay", "verify", str(replay_path)]) == 1
    assert "move 2 (seat 0): illegal move" in capsys.readouterr().err


@pytest.mark.integration
@pytest.mark.usefixtures("nim_bots")
def test_a_url_bot_plays_over_http(tmp_path: Path) -> None:
    server, base_url = start_server()
    try:
        replay_path = tmp_path / "out.json"
        args = ["play", "nim", "--bots", f"{base_url}/good,{base_url}/illegal", "--secret", SECRET]
        assert main([*args, "--replay", str(replay_path)]) == 0
    finally:
        server.shutdown()
    replay = json.loads(replay_path.read_text())
    good = [m["fault"] for m in replay["moves"] if m["seat"] == 0]
    bad = [m["fault"]["kind"] for m in replay["moves"] if m["seat"] == 1]
    assert good and all(fault is None for fault in good)
    # three illegal answers (the default fault limit), then the referee plays for the forfeited seat
    assert bad[:3] == ["illegal_move"] * 3 and set(bad[3:]) <= {"forfeited"}
    assert replay["seats"][1]["forfeited"] and replay["seats"][1]["fault_kinds"] == {"illegal_move": 3}


@pytest.mark.usefixtures("nim_bots")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "nim", "--bots", "random,nobody"], "no reference bot 'nobody'"),
        (["play", "nim", "--bots", "random"], "played by 2, 3 seats, not 1"),
        (["play", "nim", "--bots", "random,random", "--variant", "huge"], "no variant 'huge'"),
        (
            ["play", "nim", "--bots", "random,random", "--option", "stones=0"],
            "options.stones must be at least 1",
        ),
        (["play", "nim", "--bots", "random,random", "--option", "colour=red"], "unknown option"),
        (["play", "nim", "--bots", "random,random", "--option", "stones"], "name=value"),
        (["play", "nim", "--bots", "random,random", "--setup", "/no/such/file.json"], "cannot read setup"),
        (["replay", "verify", "/no/such/replay.json"], "cannot read replay"),
    ],
)
def test_bad_input_is_a_message_and_exit_2(argv: list[str], message: str, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_game_is_refused_by_the_parser(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", "chess", "--bots", "a,b"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
