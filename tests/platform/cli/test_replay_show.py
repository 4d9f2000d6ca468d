"""``arena replay show FILE [--move N]``: the position as text, a header, exit 2 on bad input."""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from pathlib import Path

import pytest

from arena.boards import render_text
from arena.cli.main import main
from arena.cli.replay_show import add_show_command
from referee.registry import get_game
from tests.platform.boards.replays import replay, replayed_by_hand


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Parse ``replay show ...`` as the ``arena`` command does and run it."""
    parser = argparse.ArgumentParser(prog="arena")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_commands = commands.add_parser("replay").add_subparsers(dest="replay_command", required=True)
    add_show_command(replay_commands)
    args = parser.parse_args(["replay", "show", *argv])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def volcano_file(tmp_path: Path) -> tuple[Path, dict]:
    document = replay("volcano")
    path = tmp_path / "volcano.json"
    path.write_text(json.dumps(document))
    return path, document


def test_the_last_position_by_default(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    path, document = volcano_file
    total = len(document["moves"])
    code, out, err = run([str(path)], capsys)
    assert code == 0 and err == ""
    first, moves, picture = out.split("\n\n", 2)
    assert first.startswith(f"volcano / fiesta-caldera, move {total} of {total}: seat ")
    assert f"ended: {document['result']['reason']}" in first
    assert len(moves.splitlines()) == total
    assert picture == render_text("volcano", replayed_by_hand(document, total))


def test_a_chosen_move_says_who_played_what(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    path, document = volcano_file
    record = document["moves"][6]
    code, out, _ = run([str(path), "--move", "7"], capsys)
    assert code == 0
    header = out.splitlines()[0]
    words = get_game("volcano").describe_move(record["move"])
    assert header.startswith(f"volcano / fiesta-caldera, move 7 of {len(document['moves'])}: ")
    assert f"seat {record['seat']} ({document['seats'][record['seat']]['name']}) played {words};" in header
    assert "{" not in header  # words, not JSON
    assert "faults so far: none" in header
    assert out.split("\n\n", 2)[2] == render_text("volcano", replayed_by_hand(document, 7))


def test_every_move_is_listed_in_words_beside_its_seat_and_json_on_request(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    path, document = volcano_file
    game = get_game("volcano")
    _, out, _ = run([str(path), "--move", "3"], capsys)
    listed = out.split("\n\n")[1].splitlines()
    expected = [
        f"{n:>5}  seat {m['seat']} ({document['seats'][m['seat']]['name']}): {game.describe_move(m['move'])}"
        for n, m in enumerate(document["moves"][:3], start=1)
    ]
    assert listed == expected
    _, out, _ = run([str(path), "--move", "3", "--json"], capsys)
    listed = out.split("\n\n")[1].splitlines()
    moves = [json.dumps(m["move"], sort_keys=True, separators=(",", ":")) for m in document["moves"][:3]]
    assert [line.endswith(f"  {move}") for line, move in zip(listed, moves, strict=True)] == [True] * 3
    assert moves[2] in out.splitlines()[0]


def test_move_zero_is_the_initial_position(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = volcano_file
    code, out, _ = run([str(path), "--move", "0"], capsys)
    assert code == 0 and ": the initial position;" in out.splitlines()[0]


def test_faults_are_in_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(json.dumps(replay("vulkan")))
    document["moves"][1]["fault"] = {"kind": "timeout", "detail": "no answer in 2000 ms"}
    document["moves"][1]["source"] = "fallback"
    path = tmp_path / "vulkan.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    code, out, _ = run([str(path), "--move", "2"], capsys)
    assert code == 0
    seat = document["moves"][1]["seat"]
    header = out.splitlines()[0]
    assert "fallback move after a fault: timeout]" in header
    assert f"faults so far: seat {seat} 1" in header
    assert "fallback move after a fault: timeout]" in out.split("\n\n")[1].splitlines()[1]
    code, out, _ = run([str(path), "--move", "1"], capsys)
    assert "faults so far: none" in out.splitlines()[0]


def test_a_fault_shows_what_the_bot_sent_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(json.dumps(replay("vulkan")))
    sent = {"type": "volcano", "tile": [-2, 0]}
    fault = {"kind": "illegal_move", "detail": "not one of the legal moves", "sent": json.dumps(sent)}
    document["moves"][0].update(fault=fault, source="fallback")
    invalid = {"kind": "invalid_response", "detail": "?", "sent": '"hello\\n"'}
    document["moves"][1].update(fault=invalid, source="fallback")
    path = tmp_path / "vulkan.json"
    path.write_text(json.dumps(document))
    code, out, _ = run([str(path), "--move", "2"], capsys)
    assert code == 0
    listed = out.split("\n\n")[1].splitlines()
    assert listed[0].endswith("[fallback move after a fault: illegal_move; sent: volcano at -2,0]")
    assert listed[1].endswith('[fallback move after a fault: invalid_response; sent: "hello\\n"]')


@pytest.mark.parametrize("move", ["-1", "100000"])
def test_a_move_out_of_range_is_exit_2(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str], move: str
) -> None:
    path, document = volcano_file
    code, out, err = run([str(path), "--move", move], capsys)
    assert code == 2 and out == ""
    assert f"--move must be 0 to {len(document['moves'])}" in err
    assert "Traceback" not in err


def test_bad_files_are_exit_2_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        tmp_path / "missing.json": "cannot read it",
        tmp_path / "garbage.json": "is not JSON",
        tmp_path / "other.json": "it is not a replay",
        tmp_path / "damaged.json": "not legal on this engine",
    }
    (tmp_path / "garbage.json").write_text("{ not json")
    (tmp_path / "other.json").write_text(json.dumps({"hello": "world"}))
    damaged = json.loads(json.dumps(replay("volcano")))
    damaged["moves"][3]["move"] = {"type": "step", "from": [9, 9], "dir": "N"}
    (tmp_path / "damaged.json").write_text(json.dumps(damaged))
    for path, message in cases.items():
        code, out, err = run([str(path)], capsys)
        assert code == 2 and out == "", path
        assert err.startswith("arena replay show: ") and message in err, err


def test_a_move_that_is_not_a_number_is_refused_by_the_parser(
    volcano_file: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = volcano_file
    with pytest.raises(SystemExit) as exit_:
        run([str(path), "--move", "ten"], capsys)
    assert exit_.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_a_name_utf8_cannot_carry_is_printed_escaped_not_a_traceback(
    volcano_file: tuple[Path, dict], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay may name a seat with a lone surrogate (JSON's escape carries it; a name stored before
    names were checked). On a strict UTF-8 output (a terminal, a pipe) it is printed as its escape."""
    path, document = volcano_file
    for seat in document["seats"]:
        seat["name"] = "x\ud800"
    path.write_text(json.dumps(document))  # ASCII, the lone surrogate as its escape
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # errors="strict", as Python's stdout
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["replay", "show", str(path), "--move", "1"]) == 0
    out.flush()
    assert "seat 0 (x\\ud800)" in out.buffer.getvalue().decode()  # type: ignore[attr-defined]
