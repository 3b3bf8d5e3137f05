"""grad_reversal and hvp_tanh: the specs hold what their rules need, and a few known submissions
get their verdicts, with the reason each rule gives. Every bundled submission is graded on all
cases by test_submissions.py; here a handful run on a few cases each, to stay quick."""

from dataclasses import replace

import numpy as np
import pytest

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.rules import max_intermediate_size
from tests.helpers import ROOT


def _load(problem_id):
    return spec.load(ROOT / "problems" / f"{problem_id}.yaml")


def _wide(case) -> bool:
    """Would the d x d Hessian break hvp_tanh's bound on this case?"""
    m, d = case.inputs["W"].shape
    return d * d > 4 * m * d + 8 * d


@pytest.fixture(scope="module")
def grad_reversal():
    return _load("grad_reversal")


@pytest.fixture(scope="module")
def hvp_tanh():
    return _load("hvp_tanh")


def test_grad_reversal_spec(grad_reversal):
    assert grad_reversal.rule("custom_vjp_grads") == {"id": "custom_vjp_grads", "field": "dx",
                                                      "cotangent": "dy", "plumbed": True}
    assert grad_reversal.rule("no_callbacks") is not None
    lam = grad_reversal.parameter("lam")
    assert lam.kind == "float" and not lam.traced
    assert 20 <= len(grad_reversal.hidden) <= 40
    # lam >= 0 is the constraint; one hidden case has lam == 0, where a dx written as zeros
    # without any rule is refused and a rule that special-cases it (zeros or None) is not
    assert all(case.inputs["lam"] >= 0 for case in grad_reversal.cases)
    assert [case.inputs["lam"] for case in grad_reversal.hidden].count(0.0) == 1
    assert {case.inputs["x"].ndim for case in grad_reversal.hidden} == {1, 2}
    assert max(case.inputs["x"].size for case in grad_reversal.hidden) == 256


def test_hvp_spec_has_cases_where_the_hessian_breaks_the_rule(hvp_tanh):
    rule = hvp_tanh.rule("max_intermediate_size")
    assert rule["bound"] == "4 * size(W) + 8 * size(x) + m * m" and rule["max_degree"] == {"d": 1}
    assert hvp_tanh.symbolic_dims == ("d",) and not hvp_tanh.probe_shapes
    assert hvp_tanh.rule("no_callbacks") is not None
    assert 20 <= len(hvp_tanh.hidden) <= 40
    assert sum(_wide(case) for case in hvp_tanh.hidden) >= 5
    assert any(case.inputs["W"].shape[0] == case.inputs["W"].shape[1] > 1 for case in hvp_tanh.examples)
    for case in hvp_tanh.cases:  # W @ x is O(1): the answer is well conditioned for rtol 1e-4
        W, x = case.inputs["W"].astype(np.float64), case.inputs["x"].astype(np.float64)
        assert np.abs(W @ x).max(initial=0.0) < 8.0, case.label


def test_hvp_bound_reads_as_the_statement_says(hvp_tanh):
    rule = hvp_tanh.rule("max_intermediate_size")
    for m, d in [(4, 4096), (1, 1024), (2, 64)]:
        shapes = {"W": (m, d), "x": (d,), "v": (d,)}
        assert max_intermediate_size.bound(rule, hvp_tanh.parameters, shapes) == 4 * m * d + 8 * d + m * m


def _few(problem, hidden, examples=True):
    """The problem with its examples (or none) and only the given hidden cases, renumbered."""
    cases = (problem.examples if examples else ()) + tuple(hidden)
    return replace(problem, cases=tuple(replace(c, index=i) for i, c in enumerate(cases)))


GRAD_REVERSAL = [
    ("accepted/nondiff_argnums.py", "AC", "ok"),
    ("rejected/formula_dx.py", "RJ", "backward_not_run"),
    ("rejected/stop_gradient_beside_rule.py", "RJ", "grads_not_from_backward"),
    ("rejected/custom_jvp.py", "RJ", "no_custom_vjp"),
    ("rejected/pure_callback_bwd.py", "RJ", "callback_used"),
    ("wrong_answer/forgets_lam.py", "WA", "wrong_value"),
]


@pytest.mark.parametrize("name, verdict, reason", GRAD_REVERSAL)
def test_grad_reversal_submissions(grad_reversal, name, verdict, reason):
    problem = _few(grad_reversal, grad_reversal.hidden[1:3])  # hidden 0 has lam == 1
    result = grading.grade(problem, ROOT / "submissions" / "grad_reversal" / name,
                           source_gate=verdict == "AC", hints=False)
    assert (result.verdict, result.reason) == (Verdict(verdict), reason), result.message
    assert all(c.verdict == result.verdict for c in result.cases), result.cases


HVP = [
    ("accepted/grad_of_vdot.py", "AC", "ok"),
    ("rejected/full_hessian.py", "RJ", "intermediate_too_large"),
    ("rejected/pure_callback.py", "RJ", "callback_used"),
    ("wrong_answer/first_derivative_factor.py", "WA", "wrong_value"),
]


@pytest.mark.parametrize("name, verdict, reason", HVP)
def test_hvp_submissions(hvp_tanh, name, verdict, reason):
    problem = _few(hvp_tanh, [next(c for c in hvp_tanh.hidden if _wide(c))])
    result = grading.grade(problem, ROOT / "submissions" / "hvp_tanh" / name,
                           source_gate=verdict == "AC", hints=False)
    assert (result.verdict, result.reason) == (Verdict(verdict), reason), result.message


def test_hessian_only_for_small_d_is_refused_on_every_case(hvp_tanh):
    """Once, only a case whose d * d is above the bound, traced at the case's own shapes,
    showed the Hessian. Traced with d as a symbol, the branch on d cannot be traced at all:
    every case, narrow or wide, is refused for the same reason."""
    narrow = next(c for c in hvp_tanh.hidden if not _wide(c))
    wide = next(c for c in hvp_tanh.hidden if _wide(c))
    problem = _few(hvp_tanh, [narrow, wide], examples=False)
    result = grading.grade(problem, ROOT / "submissions" / "hvp_tanh" / "rejected" / "hessian_for_small_d.py",
                           source_gate=False, hints=False)
    assert [(c.verdict, c.reason) for c in result.cases] == [
        (Verdict.RJ, "dim_read_as_number"), (Verdict.RJ, "dim_read_as_number")], result.cases
