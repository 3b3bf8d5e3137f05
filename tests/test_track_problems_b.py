"""per_example_clip and ema_scan: the specs load, the cases cover what the rules need, and a
few known submissions get their verdict with the reason of the rule that refuses them
(examples only, so the rules run at every example's shapes and at the probe shapes)."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def clip():
    return spec.load(ROOT / "problems" / "per_example_clip.yaml")


@pytest.fixture(scope="module")
def ema():
    return spec.load(ROOT / "problems" / "ema_scan.yaml")


def test_clip_cases_cover_the_statement(clip):
    assert 20 <= len(clip.hidden) <= 40
    names = [r["id"] for r in clip.rules]
    assert names == ["no_unrolling", "forbidden_primitives", "max_intermediate_size", "no_callbacks"]
    assert clip.symbolic_dims == ("n",) and not clip.probe_shapes
    clipped_some = clipped_none = zero_gradient = 0
    for case in clip.cases:
        w, b, X, y = (case.inputs[k] for k in "wbXy")
        assert b.shape == () and X.shape == (y.shape[0], w.shape[0])
        assert case.expected["grad_b"].shape == () and case.expected["grad_w"].shape == w.shape
        r = X.astype(np.float64) @ w + float(b) - y
        norms = np.abs(r) * np.sqrt(np.sum(X.astype(np.float64) ** 2, axis=1) + 1)
        over = norms > case.inputs["clip_norm"]
        clipped_some += bool(over.any() and not over.all())
        clipped_none += bool(not over.any())
        zero_gradient += bool((r == 0).any())
    assert clipped_some and clipped_none and zero_gradient
    assert any(c.inputs["X"].shape[0] == 1 for c in clip.hidden)


def test_ema_cases_cover_the_statement(ema):
    assert 20 <= len(ema.hidden) <= 40
    decay = [r for r in ema.parameters if r.name == "decay"][0]
    assert decay.exclusive_maximum == 1
    shapes = [c.inputs["x"].shape for c in ema.cases]
    assert any(T == 1 for T, _ in shapes)
    # a T x T matrix breaks the bound 4 * size(x) on these cases themselves, not only at the probe
    assert any(T * T > 4 * T * d for T, d in shapes)
    assert any(c.inputs["decay"] == 0 for c in ema.cases)


@pytest.mark.parametrize("problem_name, folder, name, verdict, reason, words", [
    ("clip", "accepted", "pytree_params", "AC", "ok", ""),
    ("clip", "rejected", "python_loop", "RJ", "dim_read_as_number", "reads the dim n as a number at line 11"),
    ("clip", "rejected", "lax_map", "RJ", "forbidden_primitive", "scan"),
    ("clip", "rejected", "pure_callback", "RJ", "callback_used", ""),
    ("clip", "wrong_answer", "separate_clipping", "WA", "wrong_value", ""),
    ("ema", "accepted", "vmap_over_columns", "AC", "ok", ""),
    ("ema", "rejected", "weight_matrix", "RJ", "missing_primitive", "no recurrence over T"),
    ("ema", "rejected", "dummy_scan_python_loop", "RJ", "dim_read_as_number", "reads the dim T as a number"),
    # a scan over the powers of decay is no recurrence over the rows of x
    ("ema", "rejected", "weight_matrix_scan_powers", "RJ", "missing_primitive", "no recurrence in its carry"),
    ("ema", "rejected", "convolution_with_scan_kernel", "RJ", "dim_read_as_number", "jnp.convolve"),
    ("ema", "wrong_answer", "starts_from_x0", "WA", "wrong_value", ""),
])
def test_known_submissions(request, problem_name, folder, name, verdict, reason, words):
    problem = request.getfixturevalue(problem_name)
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message
