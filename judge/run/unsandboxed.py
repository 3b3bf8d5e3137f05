"""The judge process's own part when its workers run without the sandbox (``--sandbox none``).

An unsandboxed worker runs as the judge's own uid. Where the kernel lets a process of a uid
trace, or open the memory of, another process of the same uid (Yama's ``ptrace_scope`` 0, or no
Yama at all), a submission could read or rewrite the judge's memory (its verdicts) through
``/proc/PID/mem``, or read its environment. A process that is not dumpable is closed to that:
only a process with ``CAP_SYS_PTRACE`` may still reach it, and a warm worker has none
(``judge.worker.child.lock_down``). So this process makes itself not dumpable before it hands
any run to an unsandboxed worker (``protect``); what it runs with ``exec`` is dumpable again, as
usual. Not dumpable also means no core file of the judge and no debugger attaching to it
without that capability.

A fresh worker (no warm server) locks itself down as a warm one does, as the first thing its
Python runs (``judge.worker.fresh``): no capability, not dumpable, no new privileges, the
seccomp filter. ``lock_down_args`` gives it the filter and the steps to leave out: those that
fail on this machine, found once per interpreter by running its ``probe`` (as the fork server
finds them for its children, in a child it forks to try them).

It also says, once, which of the lock-down steps did not hold on this machine
(``warn_unconfined``: the fork server names them in ``ready``; the probe, for fresh workers).
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import threading

from judge.run import imports, seccomp
from judge.run import sandbox as sandboxing

PR_SET_DUMPABLE = 4

_lock = threading.Lock()
_done: list[bool] = []
_said: set[tuple[str, str]] = set()
_probe_lock = threading.Lock()
_probed: dict[str, str] = {}


def protect() -> None:
    """Make this process not dumpable, once (warns once where that fails on Linux)."""
    with _lock:
        if _done:
            return
        _done.append(True)
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")
    except (OSError, AttributeError) as exc:
        sandboxing.warn(f"this judge process stays open to its unsandboxed workers' ptrace and "
                        f"/proc/PID/mem where the kernel allows those ({exc})")


def warn_unconfined(text: str | None, workers: str = "warm workers") -> None:
    """Say once what a fork server without isolation (or the probe, for fresh ``workers``)
    said does not hold here."""
    if not text:
        return
    with _lock:
        if (workers, text) in _said:
            return
        _said.add((workers, text))
    sandboxing.warn(f"{workers} without the sandbox are not locked down as far as they could "
                    f"be on this machine ({text}); what failed is skipped for every worker")


def lock_down_args(python: str, parent: str) -> list[str]:
    """The arguments of a fresh unsandboxed worker's entry (``judge.worker.fresh``, run by
    ``python`` with the judge's package in ``parent``) that say how it locks itself down: the
    seccomp filter, and the steps that fail on this machine left out, the first call of this
    process for ``python`` asking its ``probe`` (and warning once where a step fails). Off Linux
    no step exists and none is asked for."""
    with _probe_lock:  # concurrent first runs wait for one probe
        if python not in _probed:
            _probed[python] = _probe(python, parent)
        return ["--lock-down", _probed[python]]


def _probe(python: str, parent: str) -> str:
    """The ``--lock-down`` JSON for ``python``: the filter, and the steps its ``probe`` found to
    fail here (``null``: it could not say, so no step is taken)."""
    if not sys.platform.startswith("linux"):
        return json.dumps({"seccomp": None, "skip": None})
    config = {"seccomp": seccomp.encoded(required=False), "skip": []}
    code = imports.bootstrap(parent, "judge.worker.fresh", "probe")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE": "1"}
    done = None
    try:
        done = subprocess.run([python, "-I", "-B", "-c", code], input=json.dumps(config),
                              capture_output=True, text=True, timeout=60, cwd="/", env=env)
        failed = json.loads(done.stdout.strip().splitlines()[-1])
        if not isinstance(failed, dict):
            raise ValueError(f"not an object: {failed!r}")
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        why = done.stderr.strip()[-300:] if done is not None and done.stderr.strip() else str(exc)
        warn_unconfined(f"lock-down: its probe did not answer ({why})", "fresh workers")
        return json.dumps({**config, "skip": None})
    warn_unconfined("; ".join(f"{name}: {why}" for name, why in failed.items()), "fresh workers")
    return json.dumps({**config, "skip": sorted(failed)})


def before_run(server) -> None:
    """Before an unsandboxed run, on a warm ``server`` (``judge.run.warm.Connection``) or None."""
    protect()
    if server is not None:
        warn_unconfined(getattr(server, "unconfined", None))
