"""adamw_step: the spec loads, its cases cover the edge cases the statement names (the first
step, the largest count, b1 = 0 and b2 = 0, no weight decay, a large eps, nested trees, scalar
leaves), and a few known submissions get their verdict and reason on the examples."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def adamw():
    return spec.load(ROOT / "problems" / "adamw_step.yaml")


def _leaves(tree):
    out = []
    for key in sorted(tree):
        value = tree[key]
        out.extend(_leaves(value) if isinstance(value, dict) else [np.asarray(value)])
    return out


def test_cases_cover_the_statement(adamw):
    assert 20 <= len(adamw.hidden) <= 40
    assert [r["id"] for r in adamw.rules] == ["no_callbacks"]
    cases = [c.inputs for c in adamw.cases]
    for inputs in cases:
        shapes = [x.shape for x in _leaves(inputs["params"])]
        for name in ("grads", "m", "v"):
            assert [x.shape for x in _leaves(inputs[name])] == shapes
        assert all((x >= 0).all() for x in _leaves(inputs["v"]))
        assert inputs["count"].dtype == np.int32 and inputs["count"].shape == ()
    counts = [int(c["count"]) for c in cases]
    assert 0 in counts and 100000 in counts and any(c > 20000 for c in counts)
    # the first step with zero moments: a step number of count divides by zero there
    assert any(int(c["count"]) == 0 and not any(x.any() for x in _leaves(c["m"])) for c in cases)
    assert any(c["b1"] == 0 for c in cases) and any(c["b2"] == 0 for c in cases)
    assert any(c["weight_decay"] == 0 for c in cases) and any(c["eps"] >= 0.01 for c in cases)
    assert any(any(isinstance(v, dict) for v in c["params"].values()) for c in cases)
    assert any(all(x.ndim == 0 for x in _leaves(c["params"])) for c in cases)


@pytest.mark.parametrize("folder, name, verdict, reason", [
    ("accepted", "jit_everything", "AC", "ok"),
    ("accepted", "torch_style", "AC", "ok"),
    ("rejected", "pure_callback", "RJ", "callback_used"),
    ("rejected", "python_int_count", "RJ", "traced_value_concretized"),
    ("wrong_answer", "l2_in_gradient", "WA", "wrong_value"),
    ("wrong_answer", "count_as_float", "WA", "wrong_dtype"),
])
def test_known_submissions(adamw, folder, name, verdict, reason):
    result = grade_known(adamw, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
