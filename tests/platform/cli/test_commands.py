"""``arena demo``, ``arena worker`` and ``arena serve`` as the CLI runs them."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from arena.cli import demo
from arena.cli.main import build_parser, main
from arena.settings import Settings, SettingsError
from arena.wsgi import build
from bots import server
from bots.base import RandomBot
from referee.replay import verify_replay

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def nim_reference_bots(toy_games: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim gets one reference bot; every other game none, so the demo plays Nim only."""

    def bots_for(game_id: str) -> dict:
        return {"random": RandomBot} if game_id == "nim" else {}

    monkeypatch.setattr(demo, "bots_for", bots_for)
    monkeypatch.setattr(server, "bots_for", bots_for)
    monkeypatch.delenv("REDIS_URL", raising=False)


@pytest.mark.usefixtures("nim_reference_bots")
def test_demo_registers_bots_runs_a_round_robin_and_writes_replays(tmp_path: Path, capsys) -> None:
    data = tmp_path / "demo"
    argv = ["demo", "--game", "nim", "--games", "3", "--out", str(tmp_path), "--move-ms", "500"]
    code = main([*argv, "--data", str(data)])
    out, err = capsys.readouterr()
    assert code == 0, err
    # one reference bot, two seats: a second copy joins; 1 pairing, 3 games rounded up to 4
    replays = sorted(tmp_path.glob("m-*.json"))
    assert len(replays) == 4
    for path in replays:
        replay = json.loads(path.read_text())
        assert verify_replay(replay) == []
        assert {seat["name"] for seat in replay["seats"]} == {"nim/random", "nim/random #2"}
        assert all(move["fault"] is None for move in replay["moves"])  # each copy's signature checked
    assert "4/4 matches" in err
    assert "ladder (standard, ranked by skill (mu - 3 sigma)):" in out and "nim/random #2" in out
    assert f"4 replays written under {tmp_path}/" in out
    # the open tournament: three bots entered with their own tokens, the stopped one withdrawn
    assert "== open tournament 'Demo open' by Demo club: 3 bots entered through the entry route" in out
    assert "check-in withdrew nim/random (stopped): did not answer the check-in ping: not reachable" in out
    assert "standings as CSV: /api/v1/tournaments/t-" in out
    assert f"`arena serve --data {data}`" in out and (data / "store.json").exists()
    ladder = out[out.index("ladder (standard") :].splitlines()
    assert ladder[1].split()[:4] == ["rank", "bot", "skill", "(mu"]
    column = ladder[1].index("skill")
    skills = [float(line[column:].split()[0]) for line in ladder[3:5]]
    assert skills == sorted(skills, reverse=True)


def test_the_demo_ladder_shows_the_column_it_ranks_by() -> None:
    entry = {"rank": 1, "name": "a", "rating": 1510.0, "conservative": 2.5, "win_rate": 0.75}
    entry |= {"team_win_rate": None, "games": 4, "wins": 3, "draws": 0, "losses": 1, "mean_score": 1.0}
    headers, rows = demo.ladder_table({"ranked_by": "conservative", "entries": [entry]})
    assert headers[2:4] == ["skill (mu - 3 sigma)", "Elo"] and rows[0][2:4] == [2.5, 1510.0]
    headers, rows = demo.ladder_table({"ranked_by": "win_rate, mean_score", "entries": [entry]})
    assert headers[2:4] == ["win rate", "games"] and rows[0][2] == 0.75
    team = entry | {"team_wins": 4, "team_win_rate": 1.0}
    headers, rows = demo.ladder_table({"ranked_by": "conservative", "entries": [team]})
    assert headers[5:7] == ["team wins", "wins"] and rows[0][5:7] == [4, 3]


@pytest.mark.usefixtures("nim_reference_bots")
def test_demo_refuses_unknown_games(capsys) -> None:
    assert main(["demo", "--game", "chess"]) == 2
    assert "unknown game(s): chess" in capsys.readouterr().err


def test_demo_plans_skip_games_without_bots_and_use_two_seats_where_possible(
    toy_games, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(demo, "bots_for", lambda game_id: {"a": RandomBot} if game_id == "party" else {})
    (plan,) = demo.plan_games(["nim", "party"], notes=__import__("sys").stderr)
    assert (plan.game.id, plan.variant, plan.seats, plan.copies) == ("party", "open", 2, 2)
    assert "skipping nim: it has no reference bots" in capsys.readouterr().err


def test_worker_needs_redis_url(monkeypatch, capsys) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["worker"]) == 2
    assert "needs REDIS_URL" in capsys.readouterr().err


def test_serve_reports_a_bad_setting_and_a_busy_port(monkeypatch, capsys) -> None:
    monkeypatch.setenv("ARENA_WORKER_CONCURRENCY", "many")
    assert main(["serve"]) == 2
    assert "ARENA_WORKER_CONCURRENCY must be an integer" in capsys.readouterr().err
    monkeypatch.delenv("ARENA_WORKER_CONCURRENCY")
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["serve", "--host", "203.0.113.1", "--port", "1"]) == 2  # not an address of this machine
    assert "cannot listen on 203.0.113.1:1" in capsys.readouterr().err


def test_the_wsgi_app_insists_on_redis_and_an_organizer_token() -> None:
    with pytest.raises(SettingsError, match="REDIS_URL"):
        build(Settings(admin_token="x"))
    with pytest.raises(SettingsError, match="ARENA_ADMIN_TOKEN"):
        build(Settings(redis_url="redis://127.0.0.1:6379/0"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "99999"], "argument --port: a port is 0 to 65535, not 99999"),
        (["serve", "--port", "http"], "argument --port: not a port number: 'http'"),
        (["bots", "serve", "--port", "-1"], "argument --port: a port is 0 to 65535, not -1"),
        (["worker", "--concurrency", "-3"], "argument --concurrency: must be at least 1, not -3"),
        (["demo", "--games", "0"], "argument --games: must be at least 1, not 0"),
        (["demo", "--move-ms", "0"], "argument --move-ms: must be at least 1, not 0"),
        (["demo", "--concurrency", "0"], "argument --concurrency: must be at least 1, not 0"),
    ],
)
def test_numbers_out_of_range_are_usage_errors_not_tracebacks(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every leaf command of the ``arena`` parser, by its words (``"bots serve"``)."""
    choices = parser._subparsers._group_actions[0].choices if parser._subparsers else {}
    if not choices:
        return {prefix.strip(): parser}
    found = {}
    for name, command in choices.items():
        found.update(_commands(command, f"{prefix}{name} "))
    return found


def test_every_option_says_what_it_does() -> None:
    commands = _commands(build_parser())
    assert {"serve", "worker", "demo", "play", "replay verify", "bots serve"} <= set(commands)
    for name, command in commands.items():
        for action in command._actions:
            assert action.help, f"arena {name}: {action.option_strings or action.dest} has no help"


class _StoppedServer:
    """A stand-in for werkzeug's server: stopped (Ctrl-C) as soon as it starts serving."""

    port = 8000

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def serve_forever(self) -> None:
        raise KeyboardInterrupt

    def server_close(self) -> None:
        pass


def test_serve_registers_house_bots_and_keeps_its_data_in_the_directory_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setattr("werkzeug.serving.make_server", _StoppedServer)
    data = tmp_path / "arena"
    assert main(["serve", "--port", "0", "--data", str(data)]) == 0
    first = capsys.readouterr()
    house = len(json.loads((data / "store.json").read_text())["keys"])
    assert "registered now" in first.err and f"kept in {data}/" in first.out
    assert main(["serve", "--port", "0", "--data", str(data)]) == 0  # read back: none registered again
    assert "(0 registered now" in capsys.readouterr().err
    assert len(json.loads((data / "store.json").read_text())["keys"]) == house
    assert main(["serve", "--port", "0", "--no-house-bots"]) == 0
    assert "house bots" not in capsys.readouterr().err


def test_data_is_for_the_embedded_default(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert main(["serve", "--data", "somewhere"]) == 2
    assert "--data is for the embedded default" in capsys.readouterr().err


def test_demo_serve_parses_and_its_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["demo", "--serve", "--host", "::1", "--port", "0"])
    assert (args.serve, args.host, args.port) == (True, "::1", 0)
    assert build_parser().parse_args(["demo"]).serve is False
    with pytest.raises(SystemExit) as stopped:
        main(["demo", "--help"])
    assert stopped.value.code == 0
    words = " ".join(capsys.readouterr().out.split())
    assert "--serve" in words and "keep the platform up serving its API and pages" in words
    assert "with --serve: port" in words


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--serve", "--port", "65536"], "argument --port: a port is 0 to 65535, not 65536"),
        (["demo", "--serve", "--port", "eighty"], "argument --port: not a port number: 'eighty'"),
    ],
)
def test_a_bad_demo_port_is_a_usage_error(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.usefixtures("nim_reference_bots")
def test_demo_port_without_serve_and_a_busy_port_stop_the_demo_before_its_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--game", "nim", "--port", "8123"]) == 2
    assert "--host and --port are where --serve serves" in capsys.readouterr().err
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        argv = ["demo", "--game", "nim", "--serve", "--port", str(port), "--out", str(tmp_path)]
        assert main([*argv, "--data", str(tmp_path / "demo")]) == 2
    out, err = capsys.readouterr()
    assert f"cannot listen on 127.0.0.1:{port}" in err
    assert "matches" not in err and not (tmp_path / "demo").exists()  # no match was played


def test_a_bad_house_bots_setting_stops_serve_and_demo(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("ARENA_HOUSE_BOTS", "maybe")
    for argv in (["serve"], ["demo", "--game", "nim"]):
        assert main(argv) == 2
        assert "ARENA_HOUSE_BOTS must be 1 or 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("setting", "argv", "registered"),
    [
        ("", [], True),
        ("0", [], False),
        ("no", [], False),
        ("1", ["--no-house-bots"], False),
    ],
)
def test_serve_registers_house_bots_as_the_setting_and_its_option_say(
    setting: str, argv: list[str], registered: bool, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("ARENA_HOUSE_BOTS", setting)
    monkeypatch.setattr("werkzeug.serving.make_server", _StoppedServer)
    assert main(["serve", "--port", "0", "--data", str(tmp_path), *argv]) == 0
    assert ("house bots:" in capsys.readouterr().err) is registered
    stored = (tmp_path / "store.json").read_text()
    assert ("house:vulkan/random" in stored) is registered


def _serving_demo(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str, list[str]]:
    """``arena demo --serve`` on Nim in a process of its own; the process, its base URL and the
    lines it printed up to the address of its pages."""
    argv = [
        "--games",
        "1",
        "--move-ms",
        "500",
        "--out",
        str(tmp_path / "out"),
        "--data",
        str(tmp_path / "data"),
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.platform.nim_demo", *argv, "--serve", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("Register your own bot"):
            break
    else:
        process.wait(30)
        pytest.fail(f"the demo ended without serving:\n{''.join(lines)}\n{process.stderr.read()}")
    (base,) = re.findall(r"served at (http://\S+)/ until Ctrl-C", "".join(lines))
    return process, base, lines


@pytest.mark.integration
def test_demo_serve_serves_the_demos_data_until_ctrl_c(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)
    env.pop("ARENA_HOUSE_BOTS", None)
    process, base, lines = _serving_demo(tmp_path, env)
    try:
        printed = "".join(lines)
        (tournament,) = re.findall(r"tournament: +\S+/tournaments/(t-\w+)", printed)
        (match,) = re.findall(r"match: +\S+/matches/(m-\w+)", printed)
        assert f"home:        {base}/\n" in printed
        assert "Volcano Arena" in _get(f"{base}/")
        assert "nim/random #2" in _get(f"{base}/tournaments/{tournament}")
        assert _get(f"{base}/matches/{match}")
        shown = json.loads(_get(f"{base}/api/v1/tournaments/{tournament}"))
        assert shown["progress"]["done"] == shown["progress"]["total"] == 2
        assert json.loads(_get(f"{base}/api/v1/matches/{match}"))["status"] == "finished"
        bots = json.loads(_get(f"{base}/api/v1/bots?page_size=100"))
        assert {"nim/random", "nim/random #2"} <= {bot["name"] for bot in bots}
        assert any(bot["house"] for bot in bots)  # the embedded platform's default: house bots
    finally:
        process.send_signal(signal.SIGINT)
        code = process.wait(60)
    rest = process.stdout.read() if process.stdout else ""
    err = process.stderr.read() if process.stderr else ""
    assert code == 0, err
    assert "Traceback" not in err + rest
    assert "kept in" in rest and "house:vulkan/random" in (tmp_path / "data" / "store.json").read_text()


@pytest.mark.integration
def test_serve_stops_on_sigterm_with_its_store_kept(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_HOUSE_BOTS": "0"}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "arena.cli.main", "serve", "--port", "0", "--data", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        (base,) = re.findall(r"API at (http://\S+)/api/v1 ", line)
        assert json.loads(_get(f"{base}/api/v1/bots")) == []  # ARENA_HOUSE_BOTS=0: none
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(60)
    err = process.stderr.read() if process.stderr else ""
    assert code == 0 and "Traceback" not in err, err
    assert (tmp_path / "store.json").exists()


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.status == 200
        return str(answer.read().decode())


def test_serve_keeps_bots_secrets_sealed_and_refuses_to_start_without_their_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cryptography.fernet import Fernet

    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setattr("werkzeug.serving.make_server", _StoppedServer)
    data = tmp_path / "arena"
    key = Fernet.generate_key().decode()
    monkeypatch.setenv("ARENA_SECRETS_KEY", key)
    assert main(["serve", "--port", "0", "--data", str(data)]) == 0  # the house bots, sealed
    saved = (data / "store.json").read_text()
    assert '\\"sealed_secret\\"' in saved and '\\"secret\\"' not in saved
    capsys.readouterr()
    monkeypatch.setenv("ARENA_SECRETS_KEY", Fernet.generate_key().decode())
    assert main(["serve", "--port", "0", "--data", str(data)]) == 2
    assert "does not open with ARENA_SECRETS_KEY" in capsys.readouterr().err
    monkeypatch.delenv("ARENA_SECRETS_KEY")
    assert main(["serve", "--port", "0", "--data", str(data)]) == 2
    assert "ARENA_SECRETS_KEY is not set" in capsys.readouterr().err
    monkeypatch.setenv("ARENA_SECRETS_KEY", key)
    assert main(["serve", "--port", "0", "--data", str(data)]) == 0
