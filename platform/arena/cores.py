"""How many worker processes: ``ARENA_WORKER_PROCESSES``, a whole number or ``auto`` (the cores this
process may use, fewer under a container's CPU quota).

The settings read it (:mod:`arena.settings`) and so do ``arena worker --processes`` and the
supervisor of :mod:`arena.worker.processes`; it uses the standard library only, so the health check
(``deploy/healthcheck.py``) imports it without loading the platform.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

PROCESSES_ENV = "ARENA_WORKER_PROCESSES"
"""The number of worker processes ``arena worker`` runs (default 1), or ``auto``: one per usable core."""
CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cores(cgroup_root: Path = CGROUP_ROOT, own_cgroup: str | None = None) -> int:
    """The cores this process may use: those it may run on (``os.process_cpu_count()`` from
    Python 3.13, else its CPU affinity, else every core), fewer under a CPU quota.

    A container's quota (``docker run --cpus``, compose's ``cpus``, Kubernetes' CPU limit) is no
    affinity: the container sees every core of the host but may use only its share, and one
    process per host core would fight over it (a 2-CPU worker on a 32-core host started 32). The
    quota (:func:`cgroup_cpu_quota`) is rounded up, so 1.5 CPUs give 2 processes.
    """
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        cores = counted()
    else:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cores = os.cpu_count()
    cores = max(1, cores or 1)
    quota = cgroup_cpu_quota(cgroup_root, own_cgroup)
    return cores if quota is None else max(1, min(cores, math.ceil(quota)))


def cgroup_cpu_quota(root: Path = CGROUP_ROOT, own_cgroup: str | None = None) -> float | None:
    """The CPUs this process's control groups allow it, None when no quota applies (or none can
    be read: the platform is not Linux, or its control groups are not mounted).

    cgroup v2: the smallest ``cpu.max`` (``QUOTA PERIOD``, or ``max``) of the process's group and
    the groups above it; the group is read from ``/proc/self/cgroup`` (``own_cgroup`` stands for
    its text in tests). cgroup v1: ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` of the ``cpu``
    hierarchy as a container sees it (-1: none).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "cpu.max").write_text("150000 100000")
    >>> cgroup_cpu_quota(root, own_cgroup="0::/")
    1.5
    """
    if (root / "cgroup.controllers").exists() or (root / "cpu.max").exists():
        return _cgroup_v2_quota(root, _own_v2_group(own_cgroup))
    return _cgroup_v1_quota(root / "cpu")


def _own_v2_group(text: str | None) -> str:
    if text is None:
        try:
            text = Path("/proc/self/cgroup").read_text()
        except OSError:
            return "/"
    for line in text.splitlines():
        if line.startswith("0::"):
            return line[3:].strip() or "/"
    return "/"


def _cgroup_v2_quota(root: Path, group: str) -> float | None:
    quotas = []
    directory = root / group.strip("/")
    while True:
        quota = _read_cpu_max(directory / "cpu.max")
        if quota is not None:
            quotas.append(quota)
        if directory == root or root not in directory.parents:
            break
        directory = directory.parent
    return min(quotas) if quotas else None


def _read_cpu_max(path: Path) -> float | None:
    try:
        fields = path.read_text().split()
    except OSError:
        return None
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def _cgroup_v1_quota(cpu: Path) -> float | None:
    try:
        quota = int((cpu / "cpu.cfs_quota_us").read_text())
        period = int((cpu / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def parse_processes(text: str) -> int:
    """A number of worker processes: a whole number from 1, or ``auto`` (:func:`usable_cores`).

    >>> parse_processes("3")
    3
    >>> parse_processes("0")
    Traceback (most recent call last):
    ...
    ValueError: must be at least 1, not 0
    """
    raw = text.strip()
    if raw.lower() == "auto":
        return usable_cores()
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"not a number of processes: {text!r} (a whole number from 1, or auto)") from None
    if value < 1:
        raise ValueError(f"must be at least 1, not {value}")
    return value


def processes_from_env(env: Mapping[str, str]) -> int:
    """``ARENA_WORKER_PROCESSES`` (unset or empty: 1); a bad value raises :class:`ValueError` naming it."""
    raw = env.get(PROCESSES_ENV, "").strip()
    if not raw:
        return 1
    try:
        return parse_processes(raw)
    except ValueError as error:
        raise ValueError(f"{PROCESSES_ENV} {error}") from None
