"""Stored expected outputs are what the reference solution computes: bit for bit where the
problem compares exactly, within the problem's own tolerance where it does not (another CPU's
XLA may round a float reduction differently in the last bit, and a verdict never depends on it)."""

import numpy as np
import pytest

from tests.helpers import ROOT
from judge.grade import compare, grading
from judge.problem import layout, spec

PROBLEMS = sorted(ROOT.glob("problems/*.yaml"))


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
def test_stored_expected_equals_reference(path):
    problem = spec.load(path)
    outputs = grading.reference_outputs(problem)
    for case in problem.cases:
        tolerances = {s.key: s.tolerance for s in layout.expected_slots(problem, case.inputs)}
        assert set(tolerances) == set(case.expected), case.name
        for name, expected in case.expected.items():
            got = outputs[case.index][name]
            assert got.dtype == expected.dtype and got.shape == expected.shape, case.name
            mismatch = compare.check_values(got, expected, name, tolerances[name])
            assert mismatch is None, f"{case.name}: the stored value fails the reference: {mismatch.message}"


def test_fake_quant_ste_has_the_required_cases(fq_problem):
    assert [c.name for c in fq_problem.examples] == ["clip_both_ends", "unsigned_2d", "ties_and_boundaries"]
    assert len(fq_problem.hidden) >= 40
    ex = fq_problem.examples[0]
    assert ex.expected["values"].tolist() == [0.5, 1.0, -1.0, 1.5, -2.0]
    assert ex.expected["grads"].tolist() == [1, 1, 1, 0, 0]
    sizes = {c.inputs["x"].size for c in fq_problem.hidden}
    assert {1, 6} <= sizes
    assert any(c.inputs["x"].ndim == 2 for c in fq_problem.hidden)
    assert any(c.inputs["qmin"] == -128 and c.inputs["qmax"] == 127 for c in fq_problem.hidden)
    assert any(c.inputs["qmax"] == c.inputs["qmin"] + 1 for c in fq_problem.hidden)
    assert any(np.signbit(c.inputs["x"]).any() and (c.inputs["x"] == 0).any() for c in fq_problem.hidden)
