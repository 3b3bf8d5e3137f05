"""Stored expected outputs are exactly what the reference solution computes."""

import numpy as np
import pytest

from tests.helpers import ROOT
from judge.grade import grading
from judge.problem import spec

PROBLEMS = sorted(ROOT.glob("problems/*.yaml"))


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
def test_stored_expected_equals_reference(path):
    problem = spec.load(path)
    outputs = grading.reference_outputs(problem)
    for case in problem.cases:
        for name, expected in case.expected.items():
            got = outputs[case.index][name]
            assert got.dtype == expected.dtype and got.shape == expected.shape, case.name
            same = (got == expected) | (np.isnan(got.astype(np.float64)) & np.isnan(expected.astype(np.float64)))
            assert same.all(), f"{case.name}.{name}: reference {got.tolist()} != stored {expected.tolist()}"


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
