"""loss_and_grads: the spec loads with its rules, its cases keep the promises of the statement
(labels in [0, k), entries in [-4, 4]) and cover the mistakes it warns about (logits past
exp's range, n, d and k all different, classes no label names, one example, the largest
batch), and a few known submissions get their verdict with the reason of the rule that
refuses them (examples only). The problem's parameters are a tree whose leaves name the dims
d and k: the rules' program is traced with n, d and k as symbols, the tree's leaves too, so a
Python loop over the examples cannot be traced at all."""

import re

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.errors import SpecError
from judge.grade import grading
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "loss_and_grads.yaml")


def test_rules_and_dims(problem):
    assert 20 <= len(problem.hidden) <= 40
    assert [r["id"] for r in problem.rules] == ["no_unrolling", "forbidden_primitives",
                                                "max_intermediate_size", "no_callbacks",
                                                "primitive_dtypes"]
    assert problem.symbolic_dims == ("d", "k", "n") and not problem.probes


def test_cases_keep_the_statement(problem):
    seen = {"overflow": 0, "all_different": 0, "unused_class": 0, "n1": 0, "largest": 0,
            "k1": 0, "zero_row": 0}
    for case in problem.cases:
        params, x, y = (case.inputs[n] for n in ("params", "x", "y"))
        assert sorted(params) == ["b", "w"]
        w, b = params["w"], params["b"]
        n, d = x.shape
        k = b.shape[0]
        assert w.shape == (d, k) and y.shape == (n,) and y.dtype == np.int32
        assert 1 <= n <= 32 and 1 <= d <= 16 and 1 <= k <= 16
        assert ((0 <= y) & (y < k)).all()                     # the statement's [0, k)
        assert max(np.abs(w).max(), np.abs(b).max(), np.abs(x).max()) <= 4
        grad_w, grad_b = case.expected['grads["w"]'], case.expected['grads["b"]']
        assert case.expected["loss"].shape == () and grad_w.shape == (d, k) and grad_b.shape == (k,)
        assert np.isfinite(grad_w).all() and np.isfinite(case.expected["loss"])
        logits = x.astype(np.float64) @ w + b
        seen["overflow"] += bool(np.abs(logits).max() > 88.8)
        seen["all_different"] += len({n, d, k}) == 3
        seen["unused_class"] += len(set(y.tolist())) < k
        seen["n1"] += n == 1
        seen["largest"] += (n, d, k) == (32, 16, 16)
        seen["k1"] += k == 1
        seen["zero_row"] += bool((~x.any(axis=1)).any())
    assert all(seen.values()), seen
    assert len(problem.examples) == 2


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "value_and_grad_one_hot", "AC", "ok", ""),
    ("accepted", "by_hand", "AC", "ok", ""),
    ("rejected", "python_loop_over_examples", "RJ", "dim_read_as_number", "`for i in range(n):`"),
    ("rejected", "lax_map_per_example", "RJ", "forbidden_primitive", "scan"),
    ("wrong_answer", "naive_logsumexp", "WA", "wrong_value", ""),
    ("wrong_answer", "bias_not_differentiated", "WA", "wrong_value", 'grads["b"]'),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message


def test_one_forward_pass_is_a_rule(problem):
    """The loss computed beside jax.grad multiplies x @ w a second time: three float32 matrix
    products of two values computed from the inputs, where one pass and its gradient have two.
    Products with a one-hot of the labels or a constant vector are not counted, so the one-pass
    styles that add them are accepted."""
    from judge.author import kills

    result = grade_known(problem, "rejected", "two_forward_passes")
    assert (result.verdict.value, result.reason) == ("RJ", "repeated_computation"), result.message
    assert "3 equations" in result.message and "at most 2" in result.message
    assert "multiplies x @ w again" in result.message
    assert "rejected/two_forward_passes.py" in kills.must_be_caught(problem)
    for name in ("one_hot_einsum", "logsumexp_fancy_index_vdot", "has_aux_jit", "vjp_pullback"):
        result = grade_known(problem, "accepted", name)
        assert result.verdict.value == "AC", (name, result.message)



def test_products_are_counted_in_every_type(problem):
    """The statement counts the matrix products of x and w "in any type": the rule's entry
    names every dtype a spec can name (float8 and 4-bit types and bool too), so a second
    forward pass on float8 pieces of x and w, accumulated in float32, is counted like a float32
    one (``tests/adversarial/round12/loss_and_grads_loss_by_float8_pieces_under_cap.py``)."""
    import json

    schema = json.loads((ROOT / "judge" / "schema" / "problem.schema.json").read_text())
    every = set(schema["$defs"]["computed_dtype"]["enum"])
    assert {"float8_e4m3fn", "float8_e5m2", "int4", "bool"} <= every
    (rule,) = [r for r in problem.rules if r["id"] == "primitive_dtypes"]
    (entry,) = rule["require"]
    assert entry["at_most"] == 2 and set(entry["dtypes"]) == every

# -- a dim named only in a tree's leaves ------------------------------------------------------------

def _variant(tmp_path, change):
    import yaml

    data = yaml.safe_load((ROOT / "problems" / "loss_and_grads.yaml").read_text())
    change(data)
    path = tmp_path / "loss_and_grads.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_k_is_a_dim_of_the_leaves_with_a_range(problem):
    """k appears only in params' leaves: dims gives it a range, and y's bound names it."""
    w_leaf = dict(problem.parameter("params").leaves)["w"]
    assert w_leaf.shape == ("d", "k") and ("k", 1, 16) in w_leaf.dim_bounds
    assert problem.parameter("y").exclusive_maximum == "k"
    from judge.problem.model import dim_ranges
    from judge.reports import show

    assert dim_ranges(problem.parameters)["k"] == (1, 16)
    assert "k from 1 to 16" in show.render(problem)


@pytest.mark.parametrize("change, says", [
    (lambda d: d["examples"][0]["input"].__setitem__("y", [2, 0]), "not below 2 (k)"),
    (lambda d: d["examples"][0]["input"]["params"].update(
        w=[[0.0] * 17, [0.0] * 17], b=[0.0] * 17), "dimension 1 (k) is 17, allowed 1 to 16"),
])
def test_cases_are_checked_against_the_leaf_dim(tmp_path, change, says):
    with pytest.raises(SpecError, match=re.escape(says)):
        spec.load(_variant(tmp_path, change))


@pytest.mark.parametrize("change, key", [
    (lambda d: d["parameters"][2].__setitem__("exclusive_maximum", "kk"), "parameters[2].exclusive_maximum"),
    (lambda d: d["parameters"][0]["leaves"]["b"].__setitem__("maximum", "q"),
     "parameters[0].leaves.b.maximum"),
    (lambda d: d["dims"].__setitem__("z", [1, 2]), "dims.z"),
])
def test_a_bound_or_range_naming_no_dim_names_the_file_line_and_key(tmp_path, change, key):
    with pytest.raises(SpecError) as info:
        spec.load(_variant(tmp_path, change))
    text = str(info.value)
    assert f"loss_and_grads.yaml: {key} (line " in text and "is not a dim name" in text, text


# -- the tree's leaves traced with their dims as symbols ---------------------------------------------

def test_symbolic_dims_may_name_a_dim_of_the_leaves(tmp_path):
    """The dims default to every dim of the shapes, the leaves' included; ``symbolic_dims`` may
    keep some concrete, k (named only in the leaves) among those it names."""
    problem = spec.load(_variant(tmp_path, lambda d: d.__setitem__("symbolic_dims", ["k"])))
    assert problem.symbolic_dims == ("k",)
    from judge import rules

    trace = rules.symbolic_trace(problem, problem.cases[0].inputs)
    assert trace.trees == {"params": {"w": (2, "k"), "b": ("k",)}} and trace.shapes["x"] == (2, 2)
    assert "(d = 2, n = 2)" in trace.name


@pytest.mark.parametrize("change, key, says", [
    (lambda d: d.__setitem__("symbolic_dims", ["n", "h"]), "symbolic_dims[1]",
     "'h' is not a dim name of the parameters' shapes or of a tree's leaves (dims: d, k, n)"),
    (lambda d: d["parameters"][0]["leaves"]["w"].__setitem__("ndim", [1]), "parameters[0].leaves.w.shape",
     "has 2 dimensions but ndim allows [1]"),
    (lambda d: d["parameters"][0].__setitem__("shape", ["d", "k"]), "parameters[0].shape",
     "only array parameters have a shape (a tree's leaves have theirs, under leaves)"),
    (lambda d: d.__setitem__("probe_shapes", [{"name": "wide", "dims": {"n": 4}}]), "probe_shapes",
     "a problem with tree parameters has no probe_shapes"),
])
def test_a_bad_key_of_the_tree_s_dims_names_the_file_line_and_key(tmp_path, change, key, says):
    with pytest.raises(SpecError) as info:
        spec.load(_variant(tmp_path, change))
    text = str(info.value)
    assert f"loss_and_grads.yaml: {key} (line " in text and says in text, text
