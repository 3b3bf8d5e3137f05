"""clip_by_global_norm: the spec loads, its cases cover the edge cases the statement names
(all-zero trees, a norm exactly at max_norm, nested dicts, scalar leaves, a tiny norm, leaves
each within the norm while the tree is not), and a few known submissions get their verdict and
reason on the examples."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def clip():
    return spec.load(ROOT / "problems" / "clip_by_global_norm.yaml")


def _leaves(tree):
    out = []
    for key in sorted(tree):
        value = tree[key]
        out.extend(_leaves(value) if isinstance(value, dict) else [np.asarray(value)])
    return out


def test_cases_cover_the_statement(clip):
    assert 20 <= len(clip.hidden) <= 40
    assert [r["id"] for r in clip.rules] == ["no_callbacks"]
    assert [p.wrt for p in clip.probes] == [("grads",)]
    zero = tie = nested = scalar = tiny = per_leaf = above = below = 0
    for case in clip.cases:
        grads, max_norm = case.inputs["grads"], case.inputs["max_norm"]
        leaves = _leaves(grads)
        assert 1 <= len(leaves) <= 4 and all(x.size <= 64 and x.ndim <= 2 for x in leaves)
        g = float(np.sqrt(sum(np.sum(x.astype(np.float64) ** 2) for x in leaves)))
        norms = [float(np.sqrt(np.sum(x.astype(np.float64) ** 2))) for x in leaves]
        zero += g == 0
        tie += g == max_norm
        nested += any(isinstance(v, dict) for v in grads.values())
        scalar += any(x.ndim == 0 for x in leaves)
        tiny += 0 < g < 0.01 and g > max_norm
        per_leaf += g > max_norm and max(norms) <= max_norm
        above += g > max_norm
        below += 0 < g < max_norm
    assert zero >= 3 and tie >= 2 and nested >= 3 and scalar >= 3 and tiny >= 2
    assert per_leaf >= 2 and above >= 10 and below >= 5
    # an all-zero tree with max_norm < 1: a guard dividing by 1 instead of g would scale the VJP
    assert any(not any(x.any() for x in _leaves(c.inputs["grads"])) and c.inputs["max_norm"] < 1
               for c in clip.cases)


@pytest.mark.parametrize("folder, name, verdict, reason", [
    ("accepted", "optax_like", "AC", "ok"),
    ("accepted", "dict_loop", "AC", "ok"),
    ("rejected", "pure_callback", "RJ", "callback_used"),
    ("rejected", "python_branch", "RJ", "traced_value_concretized"),
    ("wrong_answer", "unsafe_norm", "WA", "wrong_vjp"),
    ("wrong_answer", "stop_gradient_scale", "WA", "wrong_vjp"),
    ("wrong_answer", "per_leaf_clip", "WA", "wrong_value"),
])
def test_known_submissions(clip, folder, name, verdict, reason):
    result = grade_known(clip, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message


@pytest.mark.parametrize("name", ["callback_in_backward", "callback_in_jvp_rule"])
def test_a_callback_that_runs_only_under_the_judges_derivative_is_refused(clip, name):
    result = grade_known(clip, "rejected", name)
    assert (result.verdict.value, result.reason) == ("RJ", "callback_used"), result.message
