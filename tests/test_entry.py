"""The ``judge`` program's process (``judge.entry``): the warm server started before the command
line is parsed, and the quick end of ``judge grade`` and ``judge batch``."""

import json
import subprocess
import sys

import pytest

from judge import entry
from judge.run import warm
from tests.helpers import ROOT, case_count, judge

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"
#: How long the processes a grade started may take to end after it has (they end at once).
GRACE_S = 10.0

#: ``python -c WATCH GRACE_S ARGS``: runs ``python -m judge ARGS`` as a subreaper (what the judge
#: leaves running is re-parented here rather than to init), then waits until every descendant
#: has ended or ``GRACE_S`` have passed; prints the judge's exit status, the command lines of
#: the descendants still running, and how long they took to end.
WATCH = r"""
import ctypes, json, os, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
code = subprocess.call([sys.executable, "-m", "judge", *sys.argv[2:]],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ended = time.monotonic()

def descendants():
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
        except OSError:
            continue
        if state not in "ZX":
            parents[int(pid)] = int(ppid)
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        kids = [child for child, parent in parents.items() if parent == pid]
        found, todo = found + kids, todo + kids
    return found

def command(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"

while True:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass
    left = descendants()
    if not left or time.monotonic() - ended > float(sys.argv[1]):
        break
    time.sleep(0.02)
print(json.dumps({"code": code, "left": [command(p) for p in left],
                  "after_s": time.monotonic() - ended}))
"""


@pytest.mark.parametrize("argv, started", [
    (["grade", "a.py", "-p", "x"], [(None, False)]),  # one run: no worker forked ahead
    (["grade", "a.py", "-p", "x", "--sandbox", "none"], [("none", False)]),
    (["batch", "class", "-p", "x", "--sandbox=auto"], [("auto", True)]),
    (["batch", "class", "-p", "x", "--queue", "redis://h:1/0"], []),  # the graders grade
    (["batch", "class", "-p", "x", "--queue=redis://h:1/0"], []),
    (["grade", "-h"], []),
    (["grade", "a.py", "-p", "x", "--sandbox", "bogus"], []),  # the parser's error to give
    (["grade", "a.py", "-p", "x", "--sandbox"], [(None, False)]),  # no value: the parser says so
])
def test_which_arguments_start_the_server_before_parsing(monkeypatch, argv, started):
    calls = []
    monkeypatch.setattr(warm, "prestart_early", lambda option, ahead: calls.append((option, ahead)))
    entry.start_server_early(argv)
    assert calls == started


def test_the_quick_end_flushes_the_output_and_runs_the_exit_handlers():
    code = ("import atexit, sys; atexit.register(lambda: print('handler ran', flush=True)); "
            "from judge.entry import end; sys.stdout.write('x' * 200000); end(3)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 3, done.stderr
    assert done.stdout == "x" * 200000 + "handler ran\n"


def test_a_grade_ends_with_its_whole_report_and_exit_status():
    r = judge("grade", str(ACCEPTED), "-p", "fake_quant_ste", "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)  # all of it: flushed before the process ended
    assert report["verdict"] == "AC" and len(report["cases"]) == case_count("fake_quant_ste")
    wrong = ROOT / "submissions" / "fake_quant_ste" / "wrong_answer" / "strict_mask.py"
    r = judge("grade", str(wrong), "-p", "fake_quant_ste", "--examples-only")
    assert r.returncode == 1 and "WA" in r.stdout


@pytest.mark.parametrize("submission, args, code", [
    (ACCEPTED, [], 0),
    (ACCEPTED, ["--sandbox", "none"], 0),
    # stops reporting and lingers: the judge stops it (RTE), then ends without waiting for it
    (ROOT / "tests" / "adversarial" / "close_channel_and_linger.py", ["--source-gate", "off"], 1),
])
def test_a_grade_leaves_no_process_behind(submission, args, code):
    """A grade ends once its report is written, without waiting for its warm server, sandbox or
    workers to end; they end by themselves, at once: nothing it started outlives it."""
    done = subprocess.run([sys.executable, "-c", WATCH, str(GRACE_S), "grade", str(submission),
                           "-p", "fake_quant_ste", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    watched = json.loads(done.stdout)
    assert watched["code"] == code
    assert watched["left"] == [], watched
