"""The problem model's second round: output shapes in dims, bounds on every entry of an array,
int and bool arrays, derivatives with respect to several parameters, and trees (nested dicts of
arrays) as parameters and outputs. Each feature as an author writes it (a spec in a temporary
package), and each spec error it can make, named by file, line and key."""

import textwrap

import numpy as np
import pytest

from judge.errors import SpecError
from judge.grade import grading
from judge.problem import spec
from tests.helpers import judge

PAIRS = """\
id: pairs
title: Pairwise squared distances
statement: D[i, j] = sum_k (X[i, k] - Y[j, k])^2.
entry_point: pairwise
parameters:
  - {name: X, kind: array, dtype: float32, shape: [n, d], finite: true, minimum: -4, maximum: 4}
  - {name: Y, kind: array, dtype: float32, shape: [m, d], finite: true, minimum: -4, maximum: 4}
dims: {n: [1, 8], m: [1, 8], d: [1, 4]}
output: {kind: array, shape: [n, m], dtype: float32}
tolerance: {rtol: 1.0e-5, atol: 1.0e-4}
probes: {wrt: [X, Y], vjp: true}
examples:
  - name: three_by_two
    input: {X: [[1.0, 0.0], [0.0, 1.0]], Y: [[1.0, 1.0], [0.0, 0.0], [2.0, 0.0]]}
    probe: {cotangent: [[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]]}
    expected: {value: [[1.0, 1.0, 1.0], [1.0, 1.0, 5.0]], vjp: {X: [[-4.0, -2.0], [-1.0, 2.0]], Y: [[1.0, 2.0], [0.0, -2.0], [4.0, 0.0]]}}
hidden:
  - name: one_each
    input: {X: [[1.0]], Y: [[3.0]]}
    probe: {cotangent: [[1.0]]}
    expected: {value: [[4.0]], vjp: {X: [[-4.0]], Y: [[4.0]]}}
"""

PAIRS_REFERENCE = """\
import jax.numpy as jnp


def pairwise(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T
"""

CLIP = """\
id: clip
title: Clip a tree by its global norm
statement: Scale every leaf by min(1, max_norm / g), g the norm of all entries.
entry_point: clip
parameters:
  - name: grads
    kind: tree
    leaves: {"*": {dtype: float32, ndim: [0, 1, 2], max_size: 16, finite: true}}
    min_leaves: 1
    max_leaves: 3
  - {name: max_norm, kind: float, exclusive_minimum: 0}
output: {kind: tree, structure_like: grads}
tolerance: {rtol: 1.0e-5, atol: 1.0e-6}
probes: {wrt: [grads], vjp: true}
examples:
  - name: clipped
    input: {grads: {w: [3.0, 0.0], b: 4.0}, max_norm: 1.0}
    probe: {cotangent: {w: [1.0, 1.0], b: 0.5}}
hidden:
  - name: zeros_nested
    input: {grads: {w: [[0.0, 0.0]], "bias 1": 0.0, inner: {k: [0.0]}}, max_norm: 1.0}
    probe: {cotangent: {w: [[1.0, 1.0]], "bias 1": 0.5, inner: {k: [2.0]}}}
"""

CLIP_REFERENCE = """\
import jax
import jax.numpy as jnp


def clip(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    g = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > 0, g, 1.0), 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
"""

XENT = """\
id: xent
title: Masked mean
statement: The mean of x over the positions j < lengths[i], and labels in [0, c).
entry_point: masked
parameters:
  - {name: x, kind: array, dtype: float32, shape: [b, t, c], finite: true}
  - {name: labels, kind: array, dtype: int32, shape: [b, t], minimum: 0, exclusive_maximum: c}
  - {name: lengths, kind: array, dtype: int32, shape: [b], minimum: 1, maximum: t}
  - {name: mask, kind: array, dtype: bool, shape: [c]}
dims: {b: [1, 4], t: [1, 4], c: [2, 5]}
output: {kind: array, shape: [], dtype: float32}
tolerance: {rtol: 1.0e-6, atol: 1.0e-6}
examples:
  - name: one
    input: {x: [[[1.0, 2.0], [3.0, 4.0]]], labels: [[0, 1]], lengths: [1], mask: [true, false]}
    expected: 1.0
hidden: []
"""


def package(tmp_path, spec_text: str, reference: str | None = None, name: str | None = None):
    """A problem package in ``tmp_path``: problems/<id>.yaml and reference/<id>.py."""
    ident = name or spec_text.split("\n", 1)[0].split(": ", 1)[1]
    (tmp_path / "problems").mkdir(exist_ok=True)
    (tmp_path / "reference").mkdir(exist_ok=True)
    path = tmp_path / "problems" / f"{ident}.yaml"
    path.write_text(spec_text)
    if reference is not None:
        (tmp_path / "reference" / f"{ident}.py").write_text(reference)
    return path


def submission(tmp_path, source: str, name: str = "submission.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def load_error(tmp_path, text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spec.load(package(tmp_path, text))
    return info.value


# --- loading ----------------------------------------------------------------------------------

def test_shapes_bounds_and_dtypes_are_typed_on_load(tmp_path):
    problem = spec.load(package(tmp_path, XENT))
    case = problem.cases[0]
    assert case.inputs["labels"].dtype == np.int32 and case.inputs["mask"].dtype == np.bool_
    assert case.expected["value"].shape == ()
    pairs = spec.load(package(tmp_path, PAIRS))
    assert [p.wrt for p in pairs.probes] == [("X", "Y")]
    assert set(pairs.cases[0].expected) == {"value", "grad w.r.t. X", "grad w.r.t. Y"}
    assert pairs.cases[0].expected["grad w.r.t. Y"].shape == (3, 2)


def test_trees_load_leaf_by_leaf(tmp_path):
    problem = spec.load(package(tmp_path, CLIP.replace("    probe:", "    expected: {value: {w: [0.6, 0.0], b: 0.8}, vjp: {grads: {w: [0.08, 0.2], b: -0.06}}}\n    probe:", 1)
                                .replace("hidden:\n  - name: zeros_nested", "hidden: []\nunused:\n  - name: zeros_nested")
                                .split("unused:")[0]))
    case = problem.cases[0]
    assert case.inputs["grads"]["b"].shape == () and case.inputs["grads"]["w"].dtype == np.float32
    assert set(case.expected) == {'output["w"]', 'output["b"]', 'grad w.r.t. grads["w"]',
                                  'grad w.r.t. grads["b"]'}


@pytest.mark.parametrize("edit, field, words", [
    # an entry out of its bounds, by number and by a dim's extent
    (("X: [[1.0, 0.0], [0.0, 1.0]]", "X: [[1.0, 0.0], [0.0, 5.5]]"), "examples[0].input.X",
     "1 of 4 entries are above the maximum 4; first at [1, 1]"),
    # an expected output of the wrong shape: the shape comes from the dims
    (("expected: {value: [[4.0]]", "expected: {value: [[4.0, 1.0]]"), "hidden[0].expected.value",
     "shape (1, 2), expected (1, 1)"),
    # a gradient missing for one of the parameters
    ((", Y: [[4.0]]}}", "}}"), "hidden[0].expected.vjp", "missing ['Y']"),
    # the output's shape names a dim no parameter has
    (("shape: [n, m], dtype", "shape: [n, k], dtype"), "output.shape", "'k' is not a dim name"),
    # a probe with respect to an integer or unknown parameter
    (("wrt: [X, Y]", "wrt: [X, Z]"), "probes.wrt[1]", "'Z' is not a traced array or tree"),
])
def test_spec_errors_name_file_line_and_key(tmp_path, edit, field, words):
    err = load_error(tmp_path, PAIRS.replace(*edit))
    assert err.path.endswith("pairs.yaml") and err.line is not None
    assert err.field.startswith(field), err.field
    assert words in err.problem, err.problem


@pytest.mark.parametrize("edit, field, words", [
    (("exclusive_maximum: c}", "exclusive_maximum: 2}"), None, None),
    (("labels: [[0, 1]]", "labels: [[0, 2]]"), "examples[0].input.labels",
     "1 of 2 entries are not below 2 (c); first at [0, 1]"),
    (("lengths: [1]", "lengths: [3]"), "examples[0].input.lengths", "above the maximum 2 (t)"),
    (("mask: [true, false]", "mask: [1.5, 0.0]"), "examples[0].input.mask", "must hold true and false"),
    (("lengths: [1]", "lengths: [1.5]"), "examples[0].input.lengths", "must hold whole numbers"),
])
def test_bounds_by_dim_name(tmp_path, edit, field, words):
    text = XENT.replace(*edit)
    if field is None:
        assert spec.load(package(tmp_path, text)).cases
        return
    try:
        spec.load(package(tmp_path, text))
    except SpecError as err:
        assert err.field.startswith(field), err.field
        assert words in err.problem, err.problem
        return
    raise AssertionError("loaded")


@pytest.mark.parametrize("edit, field, words", [
    (("output: {kind: tree, structure_like: grads}", "output: {kind: tree, structure_like: max_norm}"),
     "output.structure_like", "must name a tree parameter"),
    (("- {name: max_norm, kind: float, exclusive_minimum: 0}",
      "- {name: max_norm, kind: float, exclusive_minimum: 0, leaves: {a: {dtype: float32}}}"),
     "parameters[1].leaves", "leaves is for parameters of kind tree"),
    (("- {name: max_norm, kind: float, exclusive_minimum: 0}",
      "- {name: max_norm, kind: float, exclusive_minimum: n}"),
     "parameters[1].exclusive_minimum", "applies to an array's entries only"),
    (('leaves: {"*": {dtype', 'leaves: {"w*": {dtype'), "examples[0].input.grads.b",
     "no pattern of grads's leaves ('w*') matches 'b'"),
    (("max_leaves: 3", "max_leaves: 1"), "examples[0].input.grads", "has 2 leaves, at most 1 allowed"),
    (("{w: [3.0, 0.0], b: 4.0}", "{w: [3.0, .nan], b: 4.0}"), "examples[0].input.grads",
     'grads["w"]: must be finite'),
    (("{w: [3.0, 0.0], b: 4.0}", "[3.0, 4.0]"), "examples[0].input.grads", "must be a mapping (a tree)"),
    (("probe: {cotangent: {w: [1.0, 1.0], b: 0.5}}", "probe: {cotangent: {w: [1.0, 1.0]}}"),
     "examples[0].probe.cotangent", "missing ['b']"),
])
def test_tree_spec_errors(tmp_path, edit, field, words):
    text = CLIP.replace("hidden:\n  - name: zeros_nested", "hidden: []\nunused:\n  - name: zeros_nested").split("unused:")[0]
    text = text.replace("    probe: {cotangent: {w: [1.0, 1.0], b: 0.5}}",
                        "    probe: {cotangent: {w: [1.0, 1.0], b: 0.5}}\n"
                        "    expected: {value: {w: [0.6, 0.0], b: 0.8}, vjp: {grads: {w: [0.08, 0.2], b: -0.06}}}")
    assert text.replace(*edit) != text, edit
    err = load_error(tmp_path, text.replace(*edit))
    assert err.line is not None
    assert err.field.startswith(field), err.field
    assert words in err.problem, err.problem


def test_a_structure_like_tree_must_match_its_source(tmp_path):
    text = """\
id: twin
title: Twin trees
statement: Add two trees.
entry_point: add
parameters:
  - name: a
    kind: tree
    leaves: {"*": {dtype: float32}}
  - {name: b, kind: tree, structure_like: a}
output:
  kind: dict
  fields:
    total: {structure_like: a}
    count: {shape: [], dtype: int32}
examples:
  - name: one
    input: {a: {w: [1.0, 2.0]}, b: {w: [1.0, 2.0, 3.0]}}
    expected: {total: {w: [2.0, 4.0]}, count: 1}
hidden: []
"""
    err = load_error(tmp_path, text)
    assert err.field.startswith("examples[0].input.b"), err.field
    assert "must have the keys and leaf shapes of a" in err.problem
    ok = spec.load(package(tmp_path, text.replace("[1.0, 2.0, 3.0]", "[1.0, 2.0]")))
    assert set(ok.cases[0].expected) == {'total["w"]', "count"}
    assert ok.cases[0].expected["count"].dtype == np.int32


# --- grading ----------------------------------------------------------------------------------

def test_several_wrt_catch_a_gradient_cut_from_one_input(tmp_path):
    problem = spec.load(package(tmp_path, PAIRS, PAIRS_REFERENCE))
    honest = submission(tmp_path, PAIRS_REFERENCE, "honest.py")
    assert grading.grade(problem, honest, hints=False).verdict.value == "AC"
    cut = submission(tmp_path, """\
        import jax
        import jax.numpy as jnp


        def pairwise(X, Y):
            Y = jax.lax.stop_gradient(Y)
            return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T
        """, "cut.py")
    result = grading.grade(problem, cut, hints=False)
    first = result.cases[0]
    assert (result.verdict.value, first.reason) == ("WA", "wrong_vjp")
    assert "grad w.r.t. Y: 4 of 6 entries differ; first at [0,0]" in first.message, first.message
    custom = submission(tmp_path, """\
        import jax
        import jax.numpy as jnp


        @jax.custom_vjp
        def pairwise(X, Y):
            return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


        def forward(X, Y):
            return pairwise(X, Y), (X, Y)


        def backward(saved, g):
            X, Y = saved
            gX = 2 * (X * g.sum(1)[:, None] - g @ Y)
            gY = 2 * (Y * g.sum(0)[:, None] - g.T @ X)
            return gX, gY


        pairwise.defvjp(forward, backward)
        """, "custom.py")
    assert grading.grade(problem, custom, hints=False).verdict.value == "AC"


def test_tree_outputs_are_compared_leaf_by_leaf(tmp_path):
    path = package(tmp_path, CLIP, CLIP_REFERENCE)
    filled = judge("fill", str(path), "--write", cwd=tmp_path)
    assert filled.returncode == 0, filled.stderr
    problem = spec.load(path)
    assert '{w: [[1.0, 1.0]], "bias 1": 0.5, inner: {k: [2.0]}}}}' in path.read_text()
    assert grading.grade(problem, submission(tmp_path, CLIP_REFERENCE, "ref.py"), hints=False).verdict.value == "AC"
    wrong = {
        # a leaf's value: the message names the leaf's path and the entry
        "per_leaf.py": ("""\
            import jax
            import jax.numpy as jnp


            def clip(grads, max_norm):
                def one(x):
                    n = jnp.sqrt(jnp.sum(x * x))
                    return x * jnp.minimum(1.0, max_norm / jnp.where(n > 0, n, 1.0))
                return jax.tree_util.tree_map(one, grads)
            """, "wrong_value", 'output["w"]: 1 of 2 entries differ; first at output["w"][0]'),
        "as_list.py": ("""\
            import jax


            def clip(grads, max_norm):
                return jax.tree_util.tree_leaves(grads)
            """, "wrong_type", "output: expected a dict with keys ['w', 'b'], got list"),
        "renamed.py": ("""\
            def clip(grads, max_norm):
                return {("x" + k): v for k, v in grads.items()}
            """, "wrong_keys", "missing ['w', 'b']; unexpected ['xb', 'xw']"),
        "unsafe_norm.py": ("""\
            import jax
            import jax.numpy as jnp


            def clip(grads, max_norm):
                g = jnp.sqrt(sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads)))
                return jax.tree_util.tree_map(lambda x: x * jnp.minimum(1.0, max_norm / g), grads)
            """, "wrong_value", None),
    }
    for name, (source, reason, words) in wrong.items():
        result = grading.grade(problem, submission(tmp_path, source, name), hints=False)
        failed = [c for c in result.cases if c.verdict.value != "AC"]
        assert failed and failed[0].reason.startswith(reason.split("_")[0]), (name, result.cases)
        if words:
            assert words in failed[0].message, (name, failed[0].message)


def test_every_bundled_problem_page_is_strict_json():
    """The service's problem page (``judge.service.problems.detail``) of every bundled problem,
    trees, int and bool arrays included, is strict JSON; `judge show` writes trees leaf by leaf."""
    import json

    from judge.reports import show
    from judge.service import problems as pages
    from tests.helpers import ROOT

    for path in sorted((ROOT / "problems").glob("*.yaml")):
        problem = spec.load(path)
        json.dumps(pages.detail(problem), allow_nan=False)
        assert "dtype=" not in show.render(problem), path.name  # no NumPy repr
