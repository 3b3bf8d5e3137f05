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


@pytest.mark.parametrize("argv, started", [
    (["grade", "a.py", "-p", "x"], [None]),
    (["grade", "a.py", "-p", "x", "--sandbox", "none"], ["none"]),
    (["batch", "class", "-p", "x", "--sandbox=auto"], ["auto"]),
    (["batch", "class", "-p", "x", "--queue", "redis://h:1/0"], []),  # the graders grade
    (["batch", "class", "-p", "x", "--queue=redis://h:1/0"], []),
    (["grade", "-h"], []),
    (["grade", "a.py", "-p", "x", "--sandbox", "bogus"], []),  # the parser's error to give
    (["grade", "a.py", "-p", "x", "--sandbox"], [None]),  # no value: the parser says so
])
def test_which_arguments_start_the_server_before_parsing(monkeypatch, argv, started):
    calls = []
    monkeypatch.setattr(warm, "prestart_early", calls.append)
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
