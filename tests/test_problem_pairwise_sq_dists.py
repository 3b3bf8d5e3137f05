"""pairwise_sq_dists: the spec loads, its cases cover what the statement names (n != m, a
single point, zero rows, equal and close points, the largest shapes), the stored gradients are
those of the exact distances, and a few known submissions get their verdict with the reason of
the rule that refuses them (examples only)."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.grade import grading
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")


def _exact(X, Y, G):
    X, Y, G = (np.asarray(a, np.float64) for a in (X, Y, G))
    diff = X[:, None, :] - Y[None, :, :]
    return ((diff * diff).sum(-1), 2 * np.einsum("ij,ijk->ik", G, diff),
            -2 * np.einsum("ij,ijk->jk", G, diff))


def test_rules_and_dims(problem):
    assert [r["id"] for r in problem.rules] == [
        "no_unrolling", "forbidden_primitives", "max_intermediate_size", "no_callbacks"]
    assert set(problem.symbolic_dims) == {"n", "m", "d"} and not problem.probe_shapes


def test_cases_cover_the_statement(problem):
    assert 20 <= len(problem.hidden) <= 40
    shapes = [(c.inputs["X"].shape, c.inputs["Y"].shape) for c in problem.cases]
    for (n, d), (m, d2) in shapes:
        assert d == d2 and 1 <= n <= 32 and 1 <= m <= 32 and 1 <= d <= 16
    assert sum(n != m for (n, _), (m, _) in shapes) >= 5          # a transposed D has the wrong shape
    hidden = [(c.inputs["X"].shape[0], c.inputs["Y"].shape[0]) for c in problem.hidden]
    assert any(n != m for n, m in hidden) and any(n == m for n, m in hidden)
    assert any(n == 1 for n, _ in hidden) and any(m == 1 for _, m in hidden)
    # n * m * d breaks the size bound on some case itself, not only at the ends of the ranges
    assert any(n * m * d > n * m + 4 * n * d + 4 * m * d + 8 * n + 8 * m + 16
               for (n, d), (m, _) in shapes)
    zero_rows = equal = close = 0
    for case in problem.cases:
        X, Y = case.inputs["X"], case.inputs["Y"]
        assert np.all(np.abs(X) <= 4) and np.all(np.abs(Y) <= 4)
        G = case.probe_inputs["cotangent"]
        assert G.shape == (X.shape[0], Y.shape[0]) and not np.all(G == 1)
        D, gX, gY = _exact(X, Y, G)
        zero_rows += bool((~X.any(1)).any() or (~Y.any(1)).any())
        equal += bool((D == 0).any())
        close += bool(((D > 0) & (D < 0.01)).any())
        # the stored value and both gradients are those of the exact distances
        exp = case.expected
        for got, want in ((exp["value"], D), (exp["grad w.r.t. X"], gX), (exp["grad w.r.t. Y"], gY)):
            assert np.all(np.abs(np.asarray(got, np.float64) - want) <= 1e-3 + 1e-5 * np.abs(want))
    assert zero_rows >= 3 and equal >= 3 and close >= 2


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "vmap_rows", "AC", "ok", ""),
    ("accepted", "custom_vjp", "AC", "ok", ""),
    ("rejected", "broadcast_difference", "RJ", "intermediate_too_large", "n*m*d"),
    ("rejected", "python_double_loop", "RJ", "dim_read_as_number", ""),
    ("rejected", "lax_map_rows", "RJ", "forbidden_primitive", "scan"),
    ("rejected", "padded_feature_loop", "RJ", "unrolled_loop", ""),
    ("wrong_answer", "stop_gradient_y", "WA", "wrong_vjp", "w.r.t. Y"),
    ("wrong_answer", "transposed", "WA", "wrong_shape", "shape (3, 2), expected (2, 3)"),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert result.verdict.value == verdict, result.message
    if reason is not None:
        assert result.reason == reason, result.message
    assert words in result.message


#: A backward rule that reads whether jit is disabled: the judge's probe runs under
#: ``disable_jit`` (its values are computed op by op), the programs the rules read do not, so
#: with the source gate off the rule can build the (n, m, d) difference only in the probe.
#: The gate refuses ``jax.config``.
BACKWARD_READS_CONFIG = '''
import jax
import jax.numpy as jnp


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


def fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def bwd(res, g):
    X, Y = res
    if not jax.config.jax_disable_jit:
        return 2 * (X * g.sum(1)[:, None] - g @ Y), 2 * (Y * g.sum(0)[:, None] - g.T @ X)
    diff = X[:, None, :] - Y[None, :, :]
    return 2 * jnp.sum(g[:, :, None] * diff, axis=1), -2 * jnp.sum(g[:, :, None] * diff, axis=0)


pairwise_sq_dists.defvjp(fwd, bwd)
'''


@pytest.mark.parametrize("gate", [
    True,
    pytest.param(False, marks=pytest.mark.xfail(strict=True, reason=(
        "known, gate off only: the judge traces and evaluates the program without disable_jit, "
        "so a backward rule that takes another branch only under jax.config.jax_disable_jit "
        "hides that branch from every run"))),
])
def test_a_backward_rule_reading_jax_config_is_refused(tmp_path, gate):
    problem = spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")
    path = tmp_path / "backward_reads_config.py"
    path.write_text(BACKWARD_READS_CONFIG)
    result = grading.grade(problem, path, examples_only=True, hints=False, source_gate=gate)
    assert result.verdict.value == "RJ", result.message
