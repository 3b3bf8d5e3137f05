"""Work the judge itself does on what a submission returns: it stays small whatever the output
(tests/adversarial/judge_side/, honest-looking submissions the source gate lets through).

* ``probe_output_bomb.py`` (sign_ste): under the judge's JVP probe it returns a tuple holding a
  float16 array of shape (2,)*21, two million entries that NumPy's repr would print in full;
* ``keys_bloat.py`` (fake_quant_ste): the right values and grads plus 9,990 extra keys of 61
  characters, mostly line separators that escape to six characters each.

Before, the judge spent about 30 s of its own CPU and wrote a 58 MB message for the first, and
a 44 MB text report for the second.
"""

import json
import time
from pathlib import Path

import pytest

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.reports import FORMATS
from tests.helpers import ROOT

JUDGE_SIDE = Path(__file__).resolve().parent / "adversarial" / "judge_side"


@pytest.mark.parametrize("name, problem, reason", [
    ("probe_output_bomb.py", "sign_ste", "wrong_jvp"),
    ("keys_bloat.py", "fake_quant_ste", "wrong_keys"),
])
def test_a_huge_output_makes_a_short_message_and_small_reports(name, problem, reason):
    loaded = spec.load(ROOT / "problems" / f"{problem}.yaml")
    started = time.monotonic()
    result = grading.grade(loaded, JUDGE_SIDE / name, examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.WA, reason), result.message
    assert time.monotonic() - started < 120
    assert all(len(c.message) <= 2100 and "\n" not in c.message for c in result.cases)
    for fmt, render in FORMATS.items():
        text = render(result)
        assert len(text) < 300_000, (fmt, len(text))
    report = json.loads(FORMATS["json"](result))
    got = report["cases"][0]["got"]
    if reason == "wrong_keys":
        assert len(got) <= 21 and "..." in got
