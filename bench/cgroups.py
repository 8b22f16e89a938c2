"""CPU weights as systemd gives them to the shipped units, for a benchmark run without systemd.

systemd runs every unit of deploy/systemd in a control group of its own. Once one unit sets
``CPUWeight=`` the CPU controller is on, and each group's share of a contended core follows its
weight (the default 100 for the others). Without any weight the processes compete one by one, as
a benchmark's processes do when started plainly. :class:`Groups` reproduces the first case with the
kernel's own controller: one group per role under ``/sys/fs/cgroup/cpu`` (cgroup v1, where
systemd writes a weight W as ``cpu.shares`` = W × 1024 / 100) or ``/sys/fs/cgroup`` (v2:
``cpu.weight`` = W). Each role's processes (a server and every process it has forked) are moved
into its group; the groups are removed at the end.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Final

from tests.support.processes import descendants

V1: Final = Path("/sys/fs/cgroup/cpu")
V2: Final = Path("/sys/fs/cgroup")
DEFAULT_WEIGHT: Final = 100  # systemd's CPUWeight= when a unit names none


def _v1() -> bool:
    """Whether cgroup v1's CPU controller is mounted and writable here."""
    return os.access(V1 / "cpu.shares", os.W_OK)


def available() -> bool:
    """Whether this process may make CPU control groups (root, with the controller mounted)."""
    return _v1() or os.access(V2 / "cgroup.subtree_control", os.W_OK)


class Groups:
    """A control group per role, each with a systemd weight."""

    def __init__(self, name: str) -> None:
        self.v1 = _v1()
        self.root = (V1 if self.v1 else V2) / name
        self.root.mkdir()
        if not self.v1:
            (V2 / "cgroup.subtree_control").write_text("+cpu")
            (self.root / "cgroup.subtree_control").write_text("+cpu")
        self.roles: dict[str, Path] = {}

    def add(self, role: str, pids: list[int], weight: int = DEFAULT_WEIGHT) -> None:
        """Put ``pids`` and every process they have forked in ``role``'s group of ``weight``."""
        group = self.roles.get(role)
        if group is None:
            group = self.roles[role] = self.root / role
            group.mkdir()
            if self.v1:
                (group / "cpu.shares").write_text(str(weight * 1024 // DEFAULT_WEIGHT))
            else:
                (group / "cpu.weight").write_text(str(weight))
        for pid in pids:
            for each in [pid, *descendants(pid)]:
                with contextlib.suppress(ProcessLookupError):  # gone meanwhile
                    (group / "cgroup.procs").write_text(str(each))

    def close(self) -> None:
        """Move every process back to the top group and remove the groups."""
        top = V1 if self.v1 else V2
        for group in self.roles.values():
            for pid in (group / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):  # gone meanwhile
                    (top / "cgroup.procs").write_text(pid)
            group.rmdir()
        self.root.rmdir()
