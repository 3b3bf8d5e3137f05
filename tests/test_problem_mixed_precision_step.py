"""mixed_precision_step: the spec loads with the interface others grade against, its cases
meet the constraints and include steps where float16 overflows and float32 would not (with
the scale about to double, too), and known submissions get their verdict with the reason of
the rule that refuses them (examples only): float16 programs of several styles accepted; a
float32 program imitating float16 overflow, a bfloat16 one and a float32 tanh refused."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "mixed_precision_step.yaml")


def _float32_grads(inputs):
    p = {k: {n: a.astype(np.float64) for n, a in v.items()} for k, v in inputs["params"].items()}
    x, y = inputs["x"].astype(np.float64), inputs["y"].astype(np.float64)
    hid = np.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    dpred = 2 * (hid @ p["out"]["w"] - y) / x.shape[0]
    dz = np.outer(dpred, p["out"]["w"]) * (1 - hid ** 2)
    return [x.T @ dz, dz.sum(0), hid.T @ dpred]


def test_the_interface_others_grade_against(problem):
    assert [(p.name, p.kind, p.traced) for p in problem.parameters] == [
        ("params", "tree", True), ("x", "array", True), ("y", "array", True),
        ("loss_scale", "array", True), ("good_steps", "array", True), ("lr", "float", False),
        ("period", "int", False)]
    assert [f.name for f in problem.fields] == ["params", "loss_scale", "good_steps", "finite"]
    assert [(f.dtype, f.shape) for f in problem.fields[1:]] == [("float32", ()), ("int32", ()), ("bool", ())]
    assert [c.text for c in problem.conditions][:2] == ["power_of_two(loss_scale)", "good_steps < period"]
    assert [r["id"] for r in problem.rules] == ["primitive_dtypes", "no_callbacks"]
    assert not problem.probes and 20 <= len(problem.hidden) <= 40
    # the leaves name d and h: the rules' program is traced with them (and n) as symbols
    leaves = dict(problem.parameter("params").leaves)
    assert [leaves[k].shape for k in ("dense/w", "dense/b", "out/w")] == [("d", "h"), ("h",), ("h",)]
    assert problem.symbolic_dims == ("d", "h", "n")


def test_what_float16_replaces_is_refused_in_every_other_type(problem):
    """Each entry forbidding work outside float16 names every other dtype a spec can name:
    wider ones (float32, complex) and narrower ones (float8, 4-bit, bool), whose products
    of pieces can rebuild float32 work."""
    import json

    schema = json.loads((ROOT / "judge" / "schema" / "problem.schema.json").read_text())
    others = set(schema["$defs"]["computed_dtype"]["enum"]) - {"float16"}
    assert {"float8_e4m3fn", "float8_e5m2", "int4", "bool"} <= others
    (rule,) = [r for r in problem.rules if r["id"] == "primitive_dtypes"]
    wide = [e for e in rule["forbid"] if "float16" not in e["dtypes"]]
    assert len(wide) == 4 and all(set(e["dtypes"]) == others for e in wide)


def test_cases_meet_the_constraints_and_overflow_only_in_float16(problem):
    seen = {"overflow": 0, "finite": 0, "grows": 0, "overflow_about_to_grow": 0, "period_one": 0}
    for case in problem.cases:
        i, e = case.inputs, case.expected
        d, h = i["params"]["dense"]["w"].shape
        n = i["x"].shape[0]
        assert i["x"].shape == (n, d) and i["params"]["dense"]["b"].shape == (h,) == i["params"]["out"]["w"].shape
        assert 1 <= n <= 16 and 1 <= d <= 8 and 1 <= h <= 8
        scale, good, period = float(i["loss_scale"]), int(i["good_steps"]), i["period"]
        assert scale in [2.0 ** k for k in range(16)] and 0 <= good < period <= 64 and 0 < i["lr"] <= 1
        finite = bool(e["finite"])
        # float32 never overflows on these cases
        assert all(np.isfinite(g).all() and np.abs(g).max() * scale < 3e38 for g in _float32_grads(i))
        if finite:
            grow = good + 1 == period
            assert float(e["loss_scale"]) == scale * (2 if grow else 1)
            assert int(e["good_steps"]) == (0 if grow else good + 1)
            seen["grows"] += grow
            seen["period_one"] += period == 1
            seen["finite"] += 1
        else:
            assert float(e["loss_scale"]) == scale / 2 and int(e["good_steps"]) == 0
            for key in e:
                if key.startswith("params"):
                    np.testing.assert_array_equal(e[key], _leaf(i["params"], key))
            seen["overflow"] += 1
            seen["overflow_about_to_grow"] += good + 1 == period
    assert all(seen.values()), seen
    assert any(not bool(c.expected["finite"]) for c in problem.examples)


def _leaf(params, key):
    found = [v for k, v in _flat(params, "params") if k == key]
    assert found, key
    return found[0]


def _flat(tree, prefix):
    for k, v in tree.items():
        name = f'{prefix}["{k}"]'
        if isinstance(v, dict):
            yield from _flat(v, name)
        else:
            yield name, v


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "tree_map_where", "AC", "ok", ""),
    ("accepted", "value_and_grad_cond", "AC", "ok", ""),
    ("accepted", "sum_over_n_jit", "AC", "ok", ""),
    ("rejected", "float32_imitates_overflow", "RJ", "wrong_precision", "dot_general(float32, float32)"),
    ("rejected", "bfloat16", "RJ", "wrong_precision", "bfloat16"),
    ("rejected", "float32_tanh", "RJ", "wrong_precision", "tanh(float32) -> float32"),
    ("rejected", "python_branch_on_finite", "RJ", "traced_value_concretized", ""),
    # the float16 forward pass, the backward pass by hand in float32 without dot_general or tanh
    ("rejected", "hand_written_float32_backward", "RJ", "wrong_precision",
     "mul(float32, float32) -> float32 with 2 data operands"),
    ("rejected", "float32_backward_in_scalars", "RJ", "wrong_precision", "2 data operands"),
    ("rejected", "float16_show_beside_float32", "RJ", "wrong_precision", "2 data operands"),
    ("accepted", "vjp_where", "AC", "ok", ""),
    ("accepted", "grad_of_float32_params_cast_inside", "AC", "ok", ""),
    ("wrong_answer", "grows_on_overflow", "WA", "wrong_value", ""),
    ("wrong_answer", "step_applied_on_overflow", "WA", "wrong_value", ""),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message


def test_an_overflow_inside_the_backward_pass_is_a_case(problem):
    """Cases where float16 overflows inside the backward pass (the scaled derivative by pred)
    while no entry of the scaled gradient comes near 65504: a program that compares its
    gradient with 65504, or differentiates the unscaled loss, applies the step there."""
    import importlib.util

    found = importlib.util.spec_from_file_location("mps_generator", ROOT / "generators" / "mixed_precision_step.py")
    generator = importlib.util.module_from_spec(found)
    found.loader.exec_module(generator)
    inside = [c for c in problem.cases if generator.inside(c.inputs) > 4 * 65504
              and generator._top(c.inputs) < 65504 / 4]
    assert len(inside) >= 3 and not any(bool(c.expected["finite"]) for c in inside)
    from judge.grade import grading
    path = ROOT / "submissions" / "mixed_precision_step" / "wrong_answer" / "float16_unscaled_imitates_overflow.py"
    result = grading.grade(problem, path, hints=False, source_gate=True)
    assert (result.verdict.value, result.reason) == ("WA", "wrong_value"), result.message
