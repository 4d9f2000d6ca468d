"""``arena play`` and ``arena replay verify``: whole matches in-process, and clear errors."""

from __future__ import annotations

import io
import json
import socket
import sys
from pathlib import Path

import pytest

from arena.cli.local_play import game_seeds
from arena.cli.main import main
from arena.cli.tally import wilson_interval
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


def test_a_declared_game_that_does_not_load_is_a_message_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from referee import registry

    monkeypatch.setitem(registry.EXTRA, "broken", "no_such_package.game:GAME")
    registry.get_game.cache_clear()
    try:
        assert main(["play", "broken", "--bots", "random,random"]) == 2
    finally:
        registry.get_game.cache_clear()
    assert "game 'broken' (volcano_arena.games entry 'no_such_package.game:GAME') does not load" in (
        capsys.readouterr().err
    )


# --- bots from files and modules, several games, faults explained ------------------------------


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.mark.usefixtures("nim_bots")
def test_a_file_with_choose_plays_in_process(tmp_path: Path, capsys) -> None:
    bot = _write(tmp_path / "taker.py", "def choose(request):\n    return request['legal_moves'][-1]\n")
    assert main(["play", "nim", "--bots", f"{bot},random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "taker.py" in out and "no faults" in out


@pytest.mark.usefixtures("nim_bots")
def test_a_file_with_a_bot_class_gets_one_bot_per_game_and_seat(tmp_path: Path, capsys) -> None:
    bot = _write(
        tmp_path / "counting.py",
        "MADE = []\n"
        "class Bot:\n"
        "    def __init__(self, seed):\n"
        "        MADE.append(seed)\n"
        "    def choose(self, request):\n"
        "        return request['legal_moves'][0]\n"
        "def choose(request):\n"
        "    raise AssertionError('Bot comes first')\n",
    )
    assert main(["play", "nim", "--bots", f"{bot},{bot}", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "no faults" in out  # Bot was used, not the raising choose
    assert "3 games from seed 0" in out


@pytest.mark.usefixtures("nim_bots")
def test_module_function_names_a_choose_function(tmp_path: Path, monkeypatch, capsys) -> None:
    _write(tmp_path / "authors_module.py", "def pick(request):\n    return request['legal_moves'][0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["play", "nim", "--bots", "authors_module:pick,random"]) == 0
    assert "no faults" in capsys.readouterr().out


@pytest.mark.usefixtures("nim_bots")
@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = 1\n", "defines neither Bot nor choose"),
        ("def choose(request):\n    return (\n", "cannot load"),
        ("import no_such_module_anywhere\n", "ModuleNotFoundError"),
    ],
)
def test_a_broken_bot_file_is_one_line_and_exit_2(tmp_path: Path, source: str, message: str, capsys) -> None:
    bot = _write(tmp_path / "broken.py", source)
    assert main(["play", "nim", "--bots", f"{bot},random"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.usefixtures("nim_bots")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "/no/such/bot.py,random"], "no bot file /no/such/bot.py"),
        (["--bots", "no_such_module_anywhere:choose,random"], "cannot import no_such_module_anywhere"),
        (["--bots", "json:no_such_function,random"], "module json has no 'no_such_function'"),
        (["--bots", "random,random", "--games", "0"], "--games must be at least 1"),
        (["--bots", "http://,random"], "'http://' has no host"),
        (["--bots", "http://127.0.0.1:99999/,random"], "is not a valid URL"),
        (["--bots", "http://[::1/,random"], "is not a valid URL"),
    ],
)
def test_bad_bots_and_game_counts_are_refused(argv: list[str], message: str, capsys) -> None:
    assert main(["play", "nim", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.usefixtures("nim_bots")
def test_several_games_print_wins_win_rates_and_progress(tmp_path: Path, capsys) -> None:
    replay_path = tmp_path / "g.json"
    assert (
        main(
            [
                "play",
                "nim",
                "--bots",
                "random,random",
                "--games",
                "4",
                "--seed",
                "5",
                "--replay",
                str(replay_path),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    bots = [line.split() for line in captured.out.splitlines() if line.lstrip().startswith("#")]
    assert [row[0] for row in bots] == ["#1", "#2"]
    # Nim has one winner per game: the bots' wins add up to the games played, and nobody draws
    assert int(bots[0][2]) + int(bots[1][2]) == 4 and bots[0][3] == bots[1][3] == "0"
    seats = [line.split() for line in captured.out.splitlines() if line.lstrip()[:1].isdigit()]
    # rotated: each bot held each seat in two of the four games
    assert sorted((row[0], row[1], row[2]) for row in seats) == [
        ("0", "#1", "2"),
        ("0", "#2", "2"),
        ("1", "#1", "2"),
        ("1", "#2", "2"),
    ]
    # stderr is not a terminal here: one plain line per game, no bar
    assert [line.split(":")[0] for line in captured.err.splitlines()] == [f"game {i}/4" for i in range(1, 5)]
    seeds = [json.loads((tmp_path / f"g-{i}.json").read_text())["seed"] for i in range(1, 5)]
    assert seeds[0] == 5 and len(set(seeds)) == 4


@pytest.mark.usefixtures("nim_bots")
def test_an_illegal_move_is_a_result_with_its_first_fault_and_a_hint(tmp_path: Path, capsys) -> None:
    bot = _write(tmp_path / "cheat.py", "def choose(request):\n    return {'take': 99}\n")
    assert main(["play", "nim", "--bots", f"{bot},random", "--games", "2", "--max-faults", "1"]) == 0
    out = capsys.readouterr().out
    assert f"#1 {bot}: 2 illegal_move; FORFEITED 2 of 2 games" in out
    assert "first fault: game 1 (seed 0), seat 0, turn 0: illegal_move: not one of the legal moves" in out
    assert '  sent: {"take":99}\n' in out
    assert "must be one of the request's legal_moves, compared as JSON" in out


@pytest.mark.usefixtures("nim_bots")
def test_a_crashing_file_bot_is_a_bot_error_with_its_exception(tmp_path: Path, capsys) -> None:
    bot = _write(tmp_path / "crash.py", "def choose(request):\n    return request['nope']\n")
    assert main(["play", "nim", "--bots", f"random,{bot}", "--max-faults", "1"]) == 0
    out = capsys.readouterr().out
    assert f"#2 {bot}:" in out and "bot_error: KeyError: 'nope'" in out and "(forfeited)" in out


@pytest.mark.integration
@pytest.mark.usefixtures("nim_bots")
def test_a_wrong_secret_is_explained(capsys) -> None:
    server, base_url = start_server()
    try:
        assert main(["play", "nim", "--bots", f"{base_url}/good,random", "--secret", "not-the-bots"]) == 0
    finally:
        server.shutdown()
    out = capsys.readouterr().out
    assert "http_status: HTTP status 401" in out and "FORFEITED" in out
    assert "check --secret: the bot must verify with the secret arena play signs with" in out
    assert "'not-the-bots'" in out


@pytest.mark.integration
@pytest.mark.usefixtures("nim_bots")
def test_a_slow_bot_is_told_its_time_budget(capsys) -> None:
    server, base_url = start_server()
    try:
        assert main(["play", "nim", "--bots", f"{base_url}/slow,random", "--move-ms", "200"]) == 0
    finally:
        server.shutdown()
    out = capsys.readouterr().out
    assert ": timeout:" in out and "answered within 200 ms" in out


@pytest.mark.integration
@pytest.mark.usefixtures("nim_bots")
def test_a_bot_not_running_is_asked_about(capsys) -> None:
    with socket.socket() as probe:  # a port nothing listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        assert main(["play", "nim", "--bots", f"http://127.0.0.1:{port}/,random"]) == 0
    out = capsys.readouterr().out
    assert "connection_error" in out
    assert f"nothing listens on 127.0.0.1 port {port}: is the bot running" in out


def test_wilson_interval_matches_published_values() -> None:
    # 95% Wilson intervals: 5 of 10 is 0.237-0.763, 0 of 10 is 0-0.278, 10 of 10 is 0.722-1
    low, high = wilson_interval(5, 10)
    assert round(low, 3) == 0.237 and round(high, 3) == 0.763
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 3) == 0.278
    low, high = wilson_interval(10, 10)
    assert round(low, 3) == 0.722 and high == 1.0


@pytest.mark.usefixtures("nim_bots")
@pytest.mark.parametrize(("flags", "second_game"), [([], ["random", "taker.py"]), (["--no-rotate"], None)])
def test_seats_rotate_from_game_to_game_unless_told_not_to(
    tmp_path: Path, flags: list[str], second_game: list[str] | None, capsys
) -> None:
    bot = _write(tmp_path / "taker.py", "def choose(request):\n    return request['legal_moves'][-1]\n")
    out = tmp_path / "g.json"
    argv = ["play", "nim", "--bots", f"{bot},random", "--games", "3", "--replay", str(out), *flags]
    assert main(argv) == 0
    orders = [
        [Path(seat["name"]).name for seat in json.loads((tmp_path / f"g-{i}.json").read_text())["seats"]]
        for i in (1, 2, 3)
    ]
    given = ["taker.py", "random"]
    assert orders == [given, second_game or given, given]
    printed = capsys.readouterr().out
    assert ("seats rotated every game" in printed) == (not flags)


def test_the_first_game_plays_the_given_seed_and_the_others_differ() -> None:
    seeds = game_seeds(42, 5)
    assert seeds[0] == 42 and len(set(seeds)) == 5 and game_seeds(42, 2) == seeds[:2]


def test_help_names_the_default_secret_and_the_bot_forms(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "default 'local'" in out and "file.py" in out and "module:function" in out
    assert "--no-rotate" in out and "draws (a shared first place)" in out and "Wilson interval" in out


@pytest.mark.usefixtures("nim_bots")
def test_a_bot_class_that_cannot_be_built_is_said_before_any_game(tmp_path: Path, capsys) -> None:
    bot = _write(tmp_path / "two_args.py", "class Bot:\n    def __init__(self, seed, other):\n        pass\n")
    assert main(["play", "nim", "--bots", f"{bot},random"]) == 2
    err = capsys.readouterr().err
    assert ":Bot(seed) raised TypeError" in err and err.count("\n") == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("nim_bots")
def test_on_a_terminal_progress_is_one_bar_redrawn_in_place(monkeypatch, capsys) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["play", "nim", "--bots", "random,random", "--games", "3"]) == 0
    drawn = terminal.getvalue()
    assert drawn.count("\n") == 1 and drawn.endswith("\n")  # one line, finished once
    assert [f"] {n}/3 games" in drawn for n in (1, 2, 3)] == [True] * 3
    assert "game 1/3:" not in drawn  # the plain per-game lines are for logs and pipes


def test_an_illegal_move_is_shown_in_the_games_words_and_as_sent(tmp_path: Path, capsys) -> None:
    bot = _write(
        tmp_path / "far.py",
        "def choose(request):\n    return {'type': 'volcano', 'tile': [9, 9]}\n",
    )
    assert main(["play", "vulkan", "--bots", f"{bot},random", "--max-faults", "1"]) == 0
    out = capsys.readouterr().out
    assert "illegal_move: not one of the legal moves: volcano at 9,9\n" in out
    assert '  sent: volcano at 9,9  (as sent: {"type":"volcano","tile":[9,9]})\n' in out
