"""How many worker processes (``ARENA_WORKER_PROCESSES``, ``--processes``): a whole number, or
``auto``, the cores this process may use under its CPU affinity and its control groups' quota."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena import cores
from arena.settings import Settings, SettingsError


def test_auto_is_the_cores_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "usable_cores", lambda: 6)
    assert cores.parse_processes("auto") == 6
    assert cores.parse_processes(" AUTO ") == 6
    assert Settings.from_env({"ARENA_WORKER_PROCESSES": "auto"}).worker_processes == 6
    assert Settings.from_env({}).worker_processes == 1  # unset: one process, as before
    assert cores.usable_cores() >= 1


def _cgroup(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(
    ("files", "own", "quota"),
    [
        # cgroup v2 as a container sees it: its own group is the root
        ({"cgroup.controllers": "cpu io\n", "cpu.max": "200000 100000\n"}, "0::/\n", 2.0),
        ({"cgroup.controllers": "cpu\n", "cpu.max": "max 100000\n"}, "0::/\n", None),
        ({"cgroup.controllers": "cpu\n", "cpu.max": "150000 100000\n"}, "0::/\n", 1.5),
        # v2 from the host: a nested group; the tightest quota on the way up counts
        (
            {
                "cgroup.controllers": "cpu\n",
                "workers/cpu.max": "300000 100000\n",
                "workers/arena/cpu.max": "max 100000\n",
            },
            "0::/workers/arena\n",
            3.0,
        ),
        ({"cgroup.controllers": "cpu\n"}, "0::/\n", None),  # no cpu.max at all
        # v1
        ({"cpu/cpu.cfs_quota_us": "50000\n", "cpu/cpu.cfs_period_us": "100000\n"}, "", 0.5),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, "", None),
        ({}, "", None),  # no control groups mounted
    ],
)
def test_a_cpu_quota_is_read_from_the_control_groups(
    tmp_path: Path, files: dict[str, str], own: str, quota: float | None
) -> None:
    assert cores.cgroup_cpu_quota(_cgroup(tmp_path, files), own_cgroup=own) == quota


def test_auto_under_a_cpu_quota_counts_the_quota_rounded_up(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(os, "process_cpu_count", lambda: 32, raising=False)
    quota = {"cgroup.controllers": "cpu\n", "cpu.max": "150000 100000\n"}
    assert cores.usable_cores(_cgroup(tmp_path / "a", quota), own_cgroup="0::/") == 2
    tiny = {"cgroup.controllers": "cpu\n", "cpu.max": "10000 100000\n"}
    assert cores.usable_cores(_cgroup(tmp_path / "b", tiny), own_cgroup="0::/") == 1
    wide = {"cgroup.controllers": "cpu\n", "cpu.max": "6400000 100000\n"}  # more than the cores
    assert cores.usable_cores(_cgroup(tmp_path / "c", wide), own_cgroup="0::/") == 32
    assert cores.usable_cores(_cgroup(tmp_path / "d", {}), own_cgroup="") == 32


@pytest.mark.parametrize("value", ["0", "-1", "x", "1.5"])
def test_a_bad_number_of_processes_in_the_environment_is_a_settings_error(value: str) -> None:
    with pytest.raises(SettingsError, match="ARENA_WORKER_PROCESSES"):
        Settings.from_env({"ARENA_WORKER_PROCESSES": value})
