"""Helpers for the tests that grade hostile submissions (tests/adversarial/) and watch what they
leave running."""

import os
from pathlib import Path

import pytest

from judge.run import sandbox

ADVERSARIAL = Path(__file__).resolve().parent / "adversarial"

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
