"""spectral_norm: the spec loads, its cases keep the iteration's norms above 1e-2 (the spec's
constraint) and cover unconverged and converged iterations, and known submissions get their
verdict with the reason of the rule that refuses them (examples only): loops of every kind
accepted, a Python loop over K, a loop beside it, a padded unroll and an SVD refused,
differentiating through the steps a wrong answer."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "spectral_norm.yaml")


def _iterate(W, u0, K):
    W, u, v = W.astype(np.float64), u0.astype(np.float64), None
    smallest = np.inf
    for _ in range(K):
        v = W.T @ u
        smallest = min(smallest, np.linalg.norm(v))
        v /= np.linalg.norm(v)
        u = W @ v
        smallest = min(smallest, np.linalg.norm(u))
        u /= np.linalg.norm(u)
    return u, v, smallest


def test_the_interface_others_grade_against(problem):
    assert [(p.name, p.kind, p.traced) for p in problem.parameters] == [
        ("W", "array", True), ("u0", "array", True), ("K", "int", False)]
    assert problem.parameter("K").minimum == 1 and problem.parameter("K").maximum == 64
    assert [(p.name, p.input) for p in problem.probes] == [("vjp", "cotangent"), ("jvp", "tangent")]
    assert {p.wrt for p in problem.probes} == {("W",)}
    assert [r["id"] for r in problem.rules] == ["no_unrolling", "forbidden_primitives", "no_callbacks"]
    assert problem.rules[0]["parameter"] == "K"
    assert problem.symbolic_dims == ("m", "n") and 20 <= len(problem.hidden) <= 40


def test_cases_keep_the_norms_up_and_cover_the_statement(problem):
    seen = {"K1": 0, "K_large": 0, "not_converged": 0, "converged": 0, "thin": 0, "u0_not_unit": 0}
    for case in problem.cases:
        W, u0, K = case.inputs["W"], case.inputs["u0"], case.inputs["K"]
        m, n = W.shape
        assert 1 <= m <= 16 and 1 <= n <= 16 and u0.shape == (m,) and 1 <= K <= 64
        assert np.abs(W).max() <= 4 and np.abs(u0).max() <= 4
        u, v, smallest = _iterate(W, u0, K)
        assert smallest > 1e-2, case.name
        sigma = float(u @ W @ v)
        assert case.expected["value"].shape == () and abs(case.expected["value"] - sigma) <= 1e-4 * sigma
        c = float(case.probe_inputs["cotangent"])
        np.testing.assert_allclose(case.expected["vjp"], c * np.outer(u, v), rtol=1e-3, atol=1e-4)
        top = np.linalg.svd(W.astype(np.float64), compute_uv=False)[0]
        seen["K1"] += K == 1
        seen["K_large"] += K >= 40
        seen["converged"] += abs(sigma - top) < 1e-5 * top
        seen["not_converged"] += abs(sigma - top) > 1e-2 * top
        seen["thin"] += min(m, n) == 1
        seen["u0_not_unit"] += abs(np.linalg.norm(u0) - 1) > 0.5
    assert all(seen.values()), seen
    assert any(c.inputs["K"] <= 2 for c in problem.examples)  # an example where the VJPs differ


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "fori_stop_gradient_after", "AC", "ok", ""),
    ("accepted", "while_loop_counter", "AC", "ok", ""),
    ("accepted", "scan_over_steps", "AC", "ok", ""),
    ("accepted", "custom_jvp_rule", "AC", "ok", ""),
    ("rejected", "python_loop", "RJ", "unrolled_loop", "grows with K"),
    ("rejected", "python_loop_beside_scan", "RJ", "unrolled_loop", "grows with K"),
    ("rejected", "padded_unroll", "RJ", "unrolled_loop", "more than the 400 a loop needs"),
    ("rejected", "loop_except_at_3_and_7", "RJ", "unrolled_loop", "repeats work for each of the K steps"),
    ("rejected", "svd", "RJ", "forbidden_primitive", "svd"),
    ("wrong_answer", "through_the_loop", "WA", "wrong_vjp", ""),
    ("wrong_answer", "custom_vjp_only", "WA", "probe_failed", ""),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message
