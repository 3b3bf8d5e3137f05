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


@pytest.mark.parametrize("name, problem, verdict, reason", [
    ("probe_output_bomb.py", "sign_ste", Verdict.OLE, "output_limit"),
    ("keys_bloat.py", "fake_quant_ste", Verdict.OLE, "output_limit"),
])
def test_a_huge_output_makes_a_short_message_and_small_reports(name, problem, verdict, reason):
    """The result line is bounded by what the problem's outputs need (``message_budget``):
    megabytes of extra keys or a two-million-entry array are OLE, never parsed."""
    loaded = spec.load(ROOT / "problems" / f"{problem}.yaml")
    started = time.monotonic()
    result = grading.grade(loaded, JUDGE_SIDE / name, examples_only=True)
    assert (result.verdict, result.reason) == (verdict, reason), result.message
    assert "not read" in result.cases[0].message
    # a bound that catches a read of the whole output that never ends, not a speed: among
    # thirteen test processes on a 13-core VM under gVisor the grade took 150 s
    assert time.monotonic() - started < 900
    assert all(len(c.message) <= 2100 and "\n" not in c.message for c in result.cases)
    for fmt, render in FORMATS.items():
        text = render(result)
        assert len(text) < 300_000, (fmt, len(text))
    report = json.loads(FORMATS["json"](result))
    got = report["cases"][0]["got"]
    if reason == "wrong_keys":
        assert len(got) <= 21 and "..." in got


def test_extra_keys_within_the_budget_are_still_a_wrong_answer(tmp_path):
    """Below the budget the output is read and judged: 300 extra keys are WA wrong_keys."""
    source = (JUDGE_SIDE / "keys_bloat.py").read_text().replace("range(9990)", "range(300)")
    path = tmp_path / "some_extra_keys.py"
    path.write_text(source)
    loaded = spec.load(ROOT / "problems" / "fake_quant_ste.yaml")
    result = grading.grade(loaded, path, examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.WA, "wrong_keys"), result.message
