"""``arena organizers add/list/remove`` on an embedded platform's data directory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.accounts.auth import hash_token
from arena.cli.main import main
from arena.storage import Store, snapshot


def stored(data: Path) -> Store:
    store = Store.in_memory()
    snapshot.load(store.redis, data / "store.json")
    return store


def test_organizers_are_added_listed_and_removed(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["organizers", "--data", str(tmp_path), "add", "Chess club"]) == 0
    said = capsys.readouterr().out
    organizer_id = re.search(r"organizer (o-\w+) \(Chess club\)", said).group(1)
    token = re.search(r"shown this once.*: (\S+)$", said, re.M).group(1)
    found = stored(tmp_path).organizers.by_token_hash(hash_token(token))
    assert (
        found is not None and found.id == organizer_id and token not in (tmp_path / "store.json").read_text()
    )

    assert main(["organizers", "--data", str(tmp_path), "list"]) == 0
    assert capsys.readouterr().out.startswith(f"{organizer_id}\tChess club\t")
    assert main(["organizers", "--data", str(tmp_path), "remove", organizer_id]) == 0
    assert stored(tmp_path).organizers.list_all() == []


@pytest.mark.parametrize(
    "argv",
    [
        ["organizers", "list"],
        ["organizers", "--data", "{d}", "remove", "o-none"],
        ["organizers", "--data", "{d}", "add", " "],
    ],
)
def test_bad_organizer_commands_say_why_and_exit_2(tmp_path: Path, monkeypatch, capsys, argv) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main([part.format(d=tmp_path) for part in argv]) == 2
    assert capsys.readouterr().err.startswith("arena organizers: ")
