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

It also says, once, which of the lock-down steps of warm workers did not hold on this machine
(``warn_unconfined``: the fork server names them in ``ready``).
"""

from __future__ import annotations

import ctypes
import sys
import threading

from judge.run import sandbox as sandboxing

PR_SET_DUMPABLE = 4

_lock = threading.Lock()
_done: list[bool] = []
_said: set[str] = set()


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


def warn_unconfined(text: str | None) -> None:
    """Say once what a fork server without isolation said does not hold here."""
    if not text:
        return
    with _lock:
        if text in _said:
            return
        _said.add(text)
    sandboxing.warn(f"warm workers without the sandbox are not locked down as far as they could "
                    f"be on this machine ({text}); what failed is skipped for every worker")


def before_run(server) -> None:
    """Before an unsandboxed run, on a warm ``server`` (``judge.run.warm.Connection``) or None."""
    protect()
    if server is not None:
        warn_unconfined(getattr(server, "unconfined", None))
