"""The task bound of a worker run: a pids cgroup per run, so the kernel refuses a worker's new
process or thread beyond the problem's ``limits.tasks``; where no cgroup can be made, an
``RLIMIT_NPROC`` for the worker instead (see SECURITY.md). Judge side only.

A pids hierarchy that can be written is not always one that is enforced: gVisor, for one, lets a
process make groups and write ``pids.max`` there, and then starts every task asked for. So the
first group is tried before any run relies on it (``unenforced``): a process in a group of
one task must be refused a second. Where it is not, no run gets a group, and ``unbounded`` says why.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import time
from pathlib import Path


#: Exit status of the first process of a fresh worker that could not join its task group.
JOIN_FAILED = 71


class TaskGroup:
    """A pids cgroup of one run: the kernel refuses a new task (process or thread) of the
    worker beyond ``limit``, and ``exceeded`` tells whether it had to.

    The worker's first process joins it before anything else runs (a fresh worker through
    ``join_argv``; a warm one by writing ``0`` to ``procs_fd``, passed to the fork server, whose
    opener's credentials the kernel checks), and every task it starts inherits it. ``close``
    kills whatever is still in the group and removes it.
    """

    def __init__(self, path: Path, limit: int):
        self.path, self.limit = path, limit
        (path / "pids.max").write_text(str(limit))
        self.procs_fd = os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
        try:  # read again from its start at every case: one system call, not an open and a close
            self._events_fd = os.open(path / "pids.events", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._events_fd = None

    def join_argv(self, argv: list[str]) -> list[str]:
        """``argv`` started by a shell that first moves itself into this group."""
        return ["/bin/sh", "-c", f'echo 0 > "$0" || exit {JOIN_FAILED}; exec "$@"',
                str(self.path / "cgroup.procs"), *argv]

    def exceeded(self) -> bool:
        """Has the kernel refused a task of this group (``pids.events``)?"""
        try:
            if self._events_fd is not None:
                events = os.pread(self._events_fd, 4096, 0).decode("ascii", "replace")
            else:
                events = (self.path / "pids.events").read_text()
        except OSError:
            return False
        return any(line.split()[:1] == ["max"] and line.split()[1:2] != ["0"]
                   for line in events.splitlines())

    def close(self) -> None:
        fds, self.procs_fd, self._events_fd = (self.procs_fd, self._events_fd), None, None
        for fd in fds:  # once: a number closed twice could be another thread's file by then
            try:
                if fd is not None:
                    os.close(fd)
            except OSError:
                pass
        for attempt in range(50):
            try:
                pids = (self.path / "cgroup.procs").read_text().split()
            except OSError:
                pids = []
            for pid in pids:
                try:
                    if int(pid) > 0:  # never 0 or below: that would be the judge's own group
                        os.kill(int(pid), 9)
                except (ProcessLookupError, PermissionError, ValueError):
                    pass
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02 * (attempt + 1) if attempt < 10 else 0.2)


_groups_lock = threading.Lock()
_groups: dict = {"parent": None, "why": None, "count": 0}


def _pids_hierarchy() -> Path | None:
    """This process's own cgroup in a hierarchy with the pids controller (v1, or v2 with pids
    enabled for its children), or None."""
    try:
        own = {}
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            own[controllers] = path
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    for line in mounts:
        fields = line.split()
        if " - " not in line:
            continue
        after = line.split(" - ", 1)[1].split()
        fstype, options = after[0], after[2].split(",") if len(after) > 2 else []
        point = Path(fields[4])
        if fstype == "cgroup" and "pids" in options:
            key = next((k for k in own if "pids" in k.split(",")), None)
            if key is not None:
                return point / own[key].lstrip("/")
    for line in mounts:
        after = line.split(" - ", 1)[1].split() if " - " in line else []
        if after and after[0] == "cgroup2" and "" in own:
            base = Path(line.split()[4]) / own[""].lstrip("/")
            try:
                if "pids" in (base / "cgroup.subtree_control").read_text().split():
                    return base
            except OSError:
                return None
    return None


def _task_parent() -> Path | None:
    """This process's folder of task groups (made once, removed at exit), or None where no pids
    cgroup can be made here."""
    with _groups_lock:
        if _groups["parent"] is None and _groups["why"] is None:
            base = _pids_hierarchy()
            if base is None:
                _groups["why"] = "no pids cgroup hierarchy"
            else:
                _remove_stale(base)
                parent = base / f"jax-judge-{os.getpid()}"
                try:
                    parent.mkdir(exist_ok=True)
                    control = parent / "cgroup.subtree_control"
                    if control.exists() and "pids" not in control.read_text().split():
                        control.write_text("+pids")  # cgroup v2: enable pids for the runs
                    atexit.register(_remove_parent, parent)
                except OSError as exc:
                    _groups["why"] = f"cannot make a pids cgroup under {base}: {exc.strerror}"
                else:
                    _groups["why"] = unenforced(parent)
                    if _groups["why"] is None:
                        _groups["parent"] = parent
                    else:
                        _remove_parent(parent)
        return _groups["parent"]


#: The probe: joins the group (status 4 if it cannot), then starts one more task (status 3 if
#: that was let through, 0 if refused).
_PROBE = """
import os, sys
try:
    with open(sys.argv[1], "w") as procs:
        procs.write("0")
except OSError:
    sys.exit(4)
try:
    pid = os.fork()
except OSError:
    sys.exit(0)
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
sys.exit(3)
"""


def unenforced(parent: Path) -> str | None:
    """Why a pids cgroup made under ``parent`` would not hold a worker's tasks, or None when it
    does: a group with ``pids.max`` 1 is made there, and a process that joins it must be
    refused the process it then starts."""
    try:
        (parent / "probe").mkdir(exist_ok=True)
        probe = TaskGroup(parent / "probe", 1)
    except OSError as exc:
        return f"cannot make a pids cgroup under {parent}: {exc.strerror or exc}"
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _PROBE,
                               str(probe.path / "cgroup.procs")],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot try a pids cgroup under {parent}: {exc}"
    finally:
        probe.close()
    if done.returncode == 3:
        return (f"the pids cgroups under {parent} do not refuse a task beyond pids.max "
                f"(as under gVisor)")
    if done.returncode != 0:
        return f"cannot join a pids cgroup under {parent} (status {done.returncode})"
    return None


def _remove_parent(parent: Path) -> None:
    try:
        parent.rmdir()
    except OSError:
        pass


def _remove_stale(base: Path) -> None:
    """Remove the empty task groups of judge processes that died without cleaning up."""
    for parent in base.glob("jax-judge-*"):
        pid = parent.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or Path(f"/proc/{pid}").exists():
            continue
        for group in parent.glob("run-*"):
            try:
                group.rmdir()
            except OSError:
                pass
        _remove_parent(parent)


def prepare_soon() -> None:
    """Make (and try) this process's folder of task groups in the background, so that the
    command's first run does not wait for it."""
    if sys.platform.startswith("linux"):
        threading.Thread(target=_task_parent, daemon=True).start()


def unbounded(mode: str) -> str | None:
    """Why nothing bounds a worker's tasks here in sandbox ``mode``, or None when a pids cgroup
    or ``RLIMIT_NPROC`` does (``bound_tasks``)."""
    if sys.platform.startswith("linux") and _task_parent() is not None:
        return None
    if mode == "bwrap" and os.geteuid() != 0:
        return None
    why = _groups["why"] or "pids cgroups are Linux's"
    if os.geteuid() == 0:
        return f"{why}; and the judge runs as root, which RLIMIT_NPROC does not bind"
    return (f"{why}; and without the bwrap sandbox RLIMIT_NPROC would count every process of "
            f"the judge's user, not the worker's")


def bound_tasks(limit: int, mode: str) -> tuple[TaskGroup | None, dict[str, list[int]]]:
    """How one run's tasks are bounded: a pids cgroup of its own where one can be made (this
    needs write access to a pids hierarchy, as root on most hosts); else, in the bwrap sandbox
    of a judge that is not root, ``RLIMIT_NPROC`` (returned as a resource limit for the
    worker), which the kernel counts in the sandbox's own user namespace; else nothing (root
    ignores RLIMIT_NPROC, and without bwrap it would count all of the judge's processes). See
    SECURITY.md."""
    parent = _task_parent() if sys.platform.startswith("linux") else None
    if parent is not None:
        with _groups_lock:
            _groups["count"] += 1
            path = parent / f"run-{_groups['count']}"
        try:
            path.mkdir()
            try:
                return TaskGroup(path, limit), {}
            except OSError:
                path.rmdir()
                raise
        except OSError:
            pass
    if mode == "bwrap" and os.geteuid() != 0:
        return None, {"RLIMIT_NPROC": [limit, limit]}
    return None, {}
