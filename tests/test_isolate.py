"""judge.worker.isolate: the kernel calls that wall a warm worker off, checked in a child process
that has namespaces of its own (the judge's process is never changed)."""

import subprocess
import sys
import textwrap

import pytest

from tests.helpers import ROOT

SCRIPT = textwrap.dedent("""
    import os, sys
    from judge.worker import isolate
    base, source, stage_host = sys.argv[1:4]
    try:
        isolate.new_namespaces()
    except OSError as exc:
        print("no namespaces:", exc)
        sys.exit(3)
    # what bubblewrap does for a Python under /tmp: a read-only bind below a private /tmp
    os.makedirs(os.path.join(base, "venv"))
    isolate._check(isolate._libc.mount(source.encode(), os.path.join(base, "venv").encode(),
                                       None, isolate.MS_BIND, None), "bind")
    isolate.private_tmpfs(stage_host, 1 << 20)
    isolate.private_tmpfs(base, 1 << 20, stage=os.path.join(stage_host, ".stage"))
    assert not os.path.exists(os.path.join(base, "left-by-another")), "old content visible"
    with open(os.path.join(base, "venv", "python.txt")) as f:
        assert f.read() == "interpreter", "the bound folder was lost"
    assert os.listdir(stage_host) == [], "the staging folder was left behind"
    open(os.path.join(base, "new"), "w").close()  # the new tmpfs is writable
    print("ok")
""")


def test_private_tmpfs_keeps_what_is_mounted_below_it(tmp_path):
    base, source, stage_host = tmp_path / "tmp", tmp_path / "venv-source", tmp_path / "stage"
    for folder in (base, source, stage_host):
        folder.mkdir()
    (base / "left-by-another").write_text("marker")
    (source / "python.txt").write_text("interpreter")
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(base), str(source), str(stage_host)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    if done.returncode == 3:
        pytest.skip(done.stdout.strip())
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr
    # outside the child's mount namespace nothing changed
    assert (base / "left-by-another").exists() and not (base / "new").exists()


UNDUMPABLE = textwrap.dedent("""
    import ctypes, os
    from judge.worker import isolate
    if os.geteuid() == 0:  # as an ordinary user: root's own files would stay writable to it
        os.setgroups([])
        os.setresgid(65534, 65534, 65534)
        os.setresuid(65534, 65534, 65534)
    isolate.not_dumpable()  # as every child of the fork server is
    try:
        isolate.new_namespaces()
    except OSError as exc:
        if exc.errno in (1, 22, 28, 38) and "unshare" in str(exc):  # no user namespace here (38: gVisor)
            print("no namespaces:", exc)
            raise SystemExit(3)
        raise
    with open("/proc/self/uid_map") as f:
        mapped = f.read().split()
    dumpable = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
    print("ok" if mapped == [str(os.getuid())] * 2 + ["1"] else mapped, dumpable)
""")


def test_a_child_that_is_not_dumpable_makes_its_namespaces_as_an_ordinary_user():
    """Not dumpable, a process's /proc/self files belong to root (or to nobody, under a
    bubblewrap an ordinary user started), so an ordinary user's child could not write its own
    uid_map: every warm worker's isolation failed. It writes them, and is not dumpable again."""
    done = subprocess.run([sys.executable, "-c", UNDUMPABLE], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    if done.returncode == 3:
        pytest.skip(done.stdout.strip())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["ok", "0"], done.stdout
