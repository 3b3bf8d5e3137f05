"""The task bound of a worker run (judge.run.tasks): a pids cgroup is used only where it is
enforced, and where nothing bounds tasks the judge says why."""

import os
import subprocess
import sys

import pytest

from judge.run import tasks

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

THREADS = r"""
import threading, time
started = 0
try:
    for _ in range(200):
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
        started += 1
except RuntimeError:
    pass
print(started)
"""


@LINUX
def test_a_hierarchy_that_refuses_nothing_is_not_used(tmp_path, monkeypatch):
    # A plain folder takes every write a pids hierarchy does (pids.max, cgroup.procs) and
    # refuses no task: as a cgroupfs that does not enforce pids.max, it must be found out.
    monkeypatch.setattr(tasks.TaskGroup, "close", lambda self: os.close(self.procs_fd))
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "cgroup.procs").touch()
    why = tasks.unenforced(tmp_path)
    assert why is not None and "do not refuse a task beyond pids.max" in why, why
    assert (tmp_path / "probe" / "pids.max").read_text() == "1"


@LINUX
def test_where_a_group_is_used_it_refuses_the_tasks_beyond_its_limit():
    why = tasks.unbounded("none")
    if why is not None or tasks.bound_tasks(20, "none")[0] is None:
        pytest.skip(f"no pids cgroup here ({why})")
    group, _ = tasks.bound_tasks(20, "none")
    try:
        done = subprocess.run(group.join_argv([sys.executable, "-c", THREADS]),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        assert int(done.stdout) < 20
        assert group.exceeded()
    finally:
        group.close()


@pytest.mark.parametrize("euid, mode, bounded, said", [
    (1000, "bwrap", True, None),
    (1000, "none", False, "RLIMIT_NPROC would count every process of the judge's user"),
    (0, "bwrap", False, "the judge runs as root"),
])
def test_without_a_group_the_reason_names_what_is_missing(monkeypatch, euid, mode, bounded, said):
    monkeypatch.setattr(tasks, "_task_parent", lambda: None)
    monkeypatch.setitem(tasks._groups, "why", "no pids cgroup hierarchy")
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    why = tasks.unbounded(mode)
    assert (why is None) == bounded
    if said:
        assert said in why and "no pids cgroup hierarchy" in why
