"""Helpers for the tests that grade hostile submissions (tests/adversarial/) and watch what they
leave running."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.run import sandbox

ADVERSARIAL = Path(__file__).resolve().parent / "adversarial"
YAMA = Path("/proc/sys/kernel/yama/ptrace_scope")

_unavailable = sandbox.probe()
#: CI sets JUDGE_REQUIRE_BWRAP=1: there a sandbox that cannot run fails these tests instead of
#: skipping them.
_required = os.environ.get("JUDGE_REQUIRE_BWRAP") == "1"
needs_bwrap = pytest.mark.skipif(
    _unavailable is not None and not _required,
    reason=f"the bwrap sandbox cannot run here ({_unavailable}); CI installs bubblewrap")


def hostile(name: str, tmp_path: Path, **tokens) -> Path:
    """A copy of tests/adversarial/NAME in tmp_path with its __TOKENS__ filled in."""
    text = (ADVERSARIAL / name).read_text()
    for token, value in tokens.items():
        text = text.replace(f"__{token}__", str(value))
    path = tmp_path / name
    path.write_text(text)
    return path


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` that is still running (this machine's /proc; zombies, dead
    and waiting to be reaped, are left out)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(int(ppid), []).append((int(entry), state))
    found, todo = [], [pid]
    while todo:
        for child, state in children.get(todo.pop(), []):
            if state not in ("Z", "X"):
                found.append(child)
            todo.append(child)
    return found


# Attacks of a worker without isolation on the processes of its own uid
# (tests/adversarial/warm_unsandboxed_reach.py): the kernel's policy they run under, and a
# process they must be able to reach, to show that the attempts themselves work.


@pytest.fixture
def ptrace_scope():
    """Yama's ptrace scope for the test: "absent", or the value in force (0 where this process
    may set it, put back afterwards)."""
    if not YAMA.exists():
        yield "absent"
        return
    before = YAMA.read_text().strip()
    try:
        if before != "0":
            YAMA.write_text("0")
    except OSError:
        yield before
        return
    try:
        yield "0"
    finally:
        if before != "0":
            YAMA.write_text(before)


#: Python statements that leave the process without capabilities, and unable to regain any
#: through ``exec`` (the bounding set emptied first, where it may be: only with CAP_SETPCAP).
NO_CAPABILITIES = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for cap in range(64):
    libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP
header, data = (ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)()  # version 3
assert libc.capset(header, data) == 0, "capset"
"""


@pytest.fixture
def decoy():
    """A dumpable process of this uid without capabilities, none of the judge's."""
    proc = subprocess.Popen([sys.executable, "-c", NO_CAPABILITIES + "import time; time.sleep(300)"])
    yield proc.pid
    proc.kill()
    proc.wait()
