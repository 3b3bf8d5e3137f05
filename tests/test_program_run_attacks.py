"""Held-out attacks on "the program judged is the program run", and honest files it must keep
accepting (``tests/adversarial/program_run/``, the files with a ``Problem:`` line; the others
are ``tests/test_program_run.py``'s).

Each file's docstring names its problem, what it tries and the verdict a correct judge gives
(``Expected: VERDICT [reason]``). They are graded with the source gate on, as a student's would
be (everything here passes the gate), on the examples, or on every case where the docstring says
``Cases: all`` (Python state carried from one traced program to the next needs more programs
than the examples have). A hole still open is named by an ``Open:`` line: that grade is a strict
expected failure, so the test flips when the hole is closed. The default run grades the first
file of each expected verdict; ``-m slow`` grades the rest.

Below them, at the level of the case runner: where a case is not run from a program traced with
symbolic dims, the program whose summary the rules read is still another trace than the one
whose values are graded.
"""

import re
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.run import sandbox
from judge.worker import protocol
from judge.worker.case_runner import CaseRunner
from tests.helpers import ROOT, sampled

FOLDER = Path(__file__).resolve().parent / "adversarial" / "program_run"
#: a field's value runs on over the lines below it that are indented by two spaces
_FIELD = re.compile(r"^(Problem|Expected|Open|Cases):[ \t]*(.+(?:\n  .+)*)$", re.M)
SANDBOX = "bwrap" if sandbox.probe() is None else "none"


def _fields(path: Path) -> dict:
    return {k: " ".join(v.split()) for k, v in _FIELD.findall(path.read_text())}


ATTACKS = [p for p in sorted(FOLDER.glob("*.py")) if "Problem" in _fields(p)]


def _params():
    values = []
    for path in ATTACKS:
        open_hole = _fields(path).get("Open")
        marks = [pytest.mark.xfail(strict=True, reason=open_hole)] if open_hole else []
        values.append(pytest.param(path, marks=marks, id=path.stem))
    return sampled(values, key=lambda path: _fields(path)["Expected"].split()[0])


@pytest.mark.parametrize("path", _params())
def test_attack_gets_its_verdict(path):
    fields = _fields(path)
    expected = fields["Expected"].split()
    problem = spec.load(ROOT / "problems" / f"{fields['Problem']}.yaml")
    result = grading.grade(problem, path, examples_only=fields.get("Cases") != "all", hints=False,
                           sandbox=SANDBOX, source_gate=True, use_cache=True)
    messages = [f"{c.name}: {c.verdict.value} {c.reason}: {c.message[:300]}" for c in result.cases]
    assert result.verdict is Verdict(expected[0]), messages
    if len(expected) > 1:
        assert result.reason == expected[1], messages


def test_corpus_is_documented():
    assert ATTACKS
    for path in ATTACKS:
        fields = _fields(path)
        assert "Expected" in fields, path.name
        verdict, *reason = fields["Expected"].split()
        assert Verdict(verdict) and len(reason) <= 1, path.name
        assert (ROOT / "problems" / f"{fields['Problem']}.yaml").is_file(), path.name
        assert fields.get("Cases", "all") == "all", path.name


# --- a case traced at its own shapes: the values' program and the rules' program ---------------

def test_without_symbolic_dims_the_rules_read_the_program_whose_values_are_graded():
    """A case of a problem without symbolic dims, with a probe: the entry is traced for the
    output's structure and again with the probe's derivative traced in, so Python state can
    tell the calls apart (here a cumsum on the first call only). Whatever the calls do, the
    values graded are those of the program whose summary the rules read."""
    calls = []

    def entry(x):
        calls.append(1)
        if len(calls) == 1:
            return jnp.cumsum(x)
        return x

    request = {"parameters": [{"name": "x", "traced": True}], "submission": "/none.py",
               "structure": True, "probes": {"wrt": "x", "names": ["vjp"]}}
    runner = CaseRunner(entry, request)
    x = np.arange(1.0, 4.0, dtype=np.float32)
    result = runner.run({"x": x}, {"cotangent": np.ones(3, np.float32)})
    assert result["error"] is None, result["error"]
    output = np.asarray(protocol.decode_value(result["output"]))
    summed = "cumsum" in result["program"]["primitives"]
    assert np.array_equal(output, np.cumsum(x) if summed else x), (
        f"the summary the rules read ({sorted(result['program']['primitives'])}) is not the "
        f"program whose output was graded ({output})")
