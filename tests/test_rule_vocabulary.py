"""The rule vocabulary on the traced program (judge/rules/): size bounds, no unrolling,
required and forbidden primitives, probe shapes, and the spec keys that state them.

Unit tables first (expressions, spec errors, the registry's contract, the program summary),
then three small problems graded end to end with honest solutions and the cheats each rule
exists for.
"""

import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import yaml

from judge import rules
from judge.errors import SpecError
from judge.grade import grading
from judge.grade.verdicts import REASONS, Verdict
from judge.problem import spec
from judge.rules import expression, primitive_names
from judge.worker import program


# --- expressions ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("4 * size(W) + 8 * size(x)", 4 * 12 + 8 * 4),
    ("dim(W, 0) * dim(W, 1)", 12),
    ("dim(W, -1)", 4),
    ("max(d, m) * 2", 8),
    ("min(size(x), 3) + ndim(W)", 5),
    ("(d + 1) // 2", 2),
    ("d - m", 1),
])
def test_expression_values(text, value):
    tree = expression.parse(text, ["W", "x"], ["m", "d"])
    assert expression.evaluate(tree, {"W": (3, 4), "x": (4,)}, {"m": 3, "d": 4}) == value


@pytest.mark.parametrize("text, says", [
    ("size(Q)", "array parameter"),
    ("n * 2", "'n' is not a dim name"),
    ("__import__('os')", "not allowed"),
    ("size(W) ** 2", "not allowed"),
    ("2.5 * size(W)", "not allowed"),
    ("dim(W, d)", "integer axis"),
    ("", "non-empty"),
    ("size(W) +", "cannot be parsed"),
])
def test_expression_errors(text, says):
    with pytest.raises(expression.ExpressionError, match=says):
        expression.parse(text, ["W", "x"], ["m", "d"])


# --- the registry -----------------------------------------------------------------------------

def test_every_rule_module_keeps_the_contract():
    assert {"custom_vjp_grads", "no_callbacks", "max_intermediate_size", "no_unrolling",
            "required_primitives", "forbidden_primitives"} <= set(rules.RULES)
    for rule_id, module in rules.RULES.items():
        assert module.ID == rule_id
        assert module.REASONS and all(REASONS[r] is Verdict.RJ for r in module.REASONS), rule_id
        for hook in ("describe", "validate", "check"):
            assert callable(getattr(module, hook)), (rule_id, hook)
        assert set(module.EVIDENCE) <= {"program", "custom_vjp"}


def test_schema_knows_every_rule():
    ids = {entry["properties"]["id"]["const"] for entry in spec.schema()["$defs"]["rule"]["oneOf"]}
    assert ids == set(rules.RULES)


@pytest.mark.parametrize("name, spellings", [
    ("jit", {"jit", "pjit"}), ("pjit", {"jit", "pjit"}),
    ("custom_vjp_call", {"custom_vjp_call", "custom_vjp_call_jaxpr"}),
    ("checkpoint", {"checkpoint", "remat2"}), ("scan", {"scan"}), ("mul", {"mul"}),
    ("dot_general", {"dot_general", "ragged_dot_general"}),
    ("log", {"log", "log2"}), ("square", {"square", "one_minus_square"}),
])
def test_primitive_spellings(name, spellings):
    assert spellings <= set(primitive_names.spellings(name))
    assert primitive_names.count({"pjit": 2, "jit": 1, "scan": 1, "mul": 3},
                                 name) == sum({"pjit": 2, "jit": 1, "scan": 1, "mul": 3}.get(s, 0)
                                              for s in primitive_names.spellings(name))


# --- the program summary (worker side, pure data) -----------------------------------------------

def test_summary_walks_nested_programs_once_each():
    inner = jax.jit(lambda v: jnp.sin(v) * 2.0)

    def f(x):
        y = sum(inner(x[i]) for i in range(5))          # the same jitted body called 5 times
        carry, ys = jax.lax.scan(lambda c, v: (c + v, jnp.outer(v, v)), 0.0, x)
        return y + carry + ys.sum()

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(6)))
    assert summary["primitives"]["jit"] == 5
    assert summary["primitives"]["sin"] == 5            # each call's body counted
    assert summary["primitives"]["scan"] == 1
    top = summary["largest"][0]
    assert top["shape"] == [6, 1, 1] or math_prod(top["shape"]) >= 6
    assert summary["equations"] > 5 * 3


def math_prod(shape):
    return int(np.prod(shape))


def test_summary_counts_live_equations_apart():
    def f(x):
        jax.lax.scan(lambda c, v: (c, v), 0.0, x)            # thrown away
        jax.debug.print("{}", x[0])                          # an effect: feeds no output
        return jax.jit(lambda y: jnp.cumsum(y) * 2.0)(x)

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(4)))
    assert summary["primitives"]["scan"] == 1 and "scan" not in summary["live"]
    assert "debug_print" not in summary["live"] and summary["primitives"]["debug_print"] == 1
    assert summary["live"]["jit"] == 2  # jit, and cumsum's own
    assert summary["live"]["cumsum"] == summary["primitives"]["cumsum"] >= 1


def test_summary_sees_a_hessian_at_an_abstract_shape_without_running():
    f = lambda x: jnp.sum(jnp.tanh(x))  # noqa: E731
    hessian = lambda x, v: jax.hessian(f)(x) @ v  # noqa: E731
    spec_ = jax.ShapeDtypeStruct((4096,), jnp.float32)
    summary = program.summarize(jax.make_jaxpr(hessian)(spec_, spec_))
    assert math_prod(summary["largest"][0]["shape"]) == 4096 * 4096


# --- spec keys and their errors ----------------------------------------------------------------

BASE = {
    "id": "mini", "title": "t", "statement": "s", "entry_point": "f",
    "parameters": [{"name": "W", "kind": "array", "dtype": "float32", "shape": ["m", "d"]},
                   {"name": "x", "kind": "array", "dtype": "float32", "shape": ["d"]},
                   {"name": "k", "kind": "float", "traced": False}],
    "dims": {"m": [1, 4], "d": [1, 8]},
    "output": {"kind": "array", "shape_like": "x", "dtype": "float32"},
    "rules": [{"id": "max_intermediate_size", "bound": "4 * size(W)"}],
    "probe_shapes": [{"name": "wide", "dims": {"m": 2, "d": 1024}}],
    "examples": [{"input": {"W": [[1.0, 2.0]], "x": [1.0, 2.0], "k": 1.0}, "expected": [0.0, 0.0]}],
    "hidden": [],
}


def _load(tmp_path, data):
    path = tmp_path / "problems" / "mini.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return spec.load(path)


def _with(**changes):
    data = yaml.safe_load(yaml.safe_dump(BASE))
    for key, value in changes.items():
        data[key] = value
    return data


def test_probe_shapes_resolve_every_shape_and_static_value(tmp_path):
    problem = _load(tmp_path, BASE)
    (wide,) = problem.probe_shapes
    assert wide.shapes == {"W": (2, 1024), "x": (1024,)}
    assert wide.values == {"k": 1.0}   # the first example's
    assert wide.dtypes == {"W": "float32", "x": "float32"}


def test_probe_shape_dims_default_to_the_first_example(tmp_path):
    problem = _load(tmp_path, _with(probe_shapes=[{"name": "tall", "dims": {"m": 64}}]))
    assert problem.probe_shapes[0].shapes == {"W": (64, 2), "x": (2,)}


@pytest.mark.parametrize("changes, where, says", [
    ({"rules": [{"id": "max_intermediate_size", "bound": "size(y)"}]}, ["rules", 0, "bound"], "array parameter"),
    ({"rules": [{"id": "no_unrolling", "dim": "n"}]}, ["rules", 0, "dim"], "not a dim name"),
    ({"dims": {"q": [1, 2]}}, ["dims", "q"], "not a dim name"),
    ({"dims": {"d": [5, 2]}}, ["dims", "d"], "above the highest"),
    ({"probe_shapes": [{"name": "p", "dims": {"z": 3}}]}, ["probe_shapes", 0, "dims"], "not a dim name"),
    ({"probe_shapes": [{"name": "p", "dims": {"m": 3, "d": 4}, "values": {"zz": 1}}]},
     ["probe_shapes", 0, "values", "zz"], "not a parameter"),
])
def test_spec_errors_name_the_key(tmp_path, changes, where, says):
    with pytest.raises(SpecError, match=says) as info:
        _load(tmp_path, _with(**changes))
    assert list(info.value.steps[:len(where)]) == where


@pytest.mark.parametrize("inputs, says", [
    ({"W": [[1.0, 2.0, 3.0]], "x": [1.0, 2.0], "k": 1.0}, "but d is 3 in W"),
    ({"W": [[1.0] * 9], "x": [1.0] * 9, "k": 1.0}, "allowed 1 to 8"),
    ({"W": [1.0, 2.0], "x": [1.0, 2.0], "k": 1.0}, "expected 2 dimensions"),
])
def test_cases_must_fit_the_symbolic_shapes(tmp_path, inputs, says):
    data = _with(examples=[{"input": inputs, "expected": [0.0] * len(inputs["x"])}])
    with pytest.raises(SpecError, match=says):
        _load(tmp_path, data)


# --- end to end: three small problems, honest solutions and the cheats each rule exists for ------

def _arr(a):
    return np.asarray(a, dtype=np.float32).tolist()


def _hvp(W, x, v):
    W, x, v = (np.asarray(a, np.float64) for a in (W, x, v))
    t = np.tanh(W @ x)
    return W.T @ (-2 * t * (1 - t ** 2) * (W @ v))


def _clip(w, X):
    w, X = np.asarray(w, np.float64), np.asarray(X, np.float64)
    g = (X @ w)[:, None] * X
    norms = np.linalg.norm(g, axis=1, keepdims=True)
    return (g / np.maximum(1.0, norms)).mean(axis=0)


def _ema(x, decay):
    out, m = [], 0.0
    for v in np.asarray(x, np.float64):
        m = decay * m + (1 - decay) * v
        out.append(m)
    return out


def _case(name, inputs, expected):
    return {"name": name, "input": inputs, "expected": _arr(expected)}


def _specs():
    rng = np.random.default_rng(0)
    hvp_cases = []
    for name, (m, d) in {"small": (2, 3), "tall": (3, 5), "wide": (2, 32)}.items():
        W, x, v = (rng.normal(size=s) * 0.3 for s in ((m, d), (d,), (d,)))
        hvp_cases.append(_case(name, {"W": _arr(W), "x": _arr(x), "v": _arr(v)},
                               _hvp(np.float32(W), np.float32(x), np.float32(v))))
    clip_cases = []
    for name, (n, d) in {"three": (3, 2), "five": (5, 3), "twelve": (12, 2)}.items():
        w, X = rng.normal(size=d), rng.normal(size=(n, d))
        clip_cases.append(_case(name, {"w": _arr(w), "X": _arr(X)}, _clip(np.float32(w), np.float32(X))))
    ema_cases = []
    for name, T in {"four": 4, "nine": 9, "twenty": 20}.items():
        x = rng.normal(size=T)
        ema_cases.append(_case(name, {"x": _arr(x), "decay": 0.75}, _ema(np.float32(x), 0.75)))
    common = {"title": "t", "statement": "s", "tolerance": {"rtol": 1e-4, "atol": 1e-5},
              "limits": {"time_per_case_s": 20}}
    return {
        "hvp_mini": {**common, "id": "hvp_mini", "entry_point": "hvp",
                     "parameters": [{"name": "W", "kind": "array", "dtype": "float32", "shape": ["m", "d"]},
                                    {"name": "x", "kind": "array", "dtype": "float32", "shape": ["d"]},
                                    {"name": "v", "kind": "array", "dtype": "float32", "shape": ["d"]}],
                     "output": {"kind": "array", "shape_like": "x", "dtype": "float32"},
                     "probe_shapes": [{"name": "wide", "dims": {"m": 2, "d": 2048}}],
                     "rules": [{"id": "max_intermediate_size", "bound": "4 * size(W) + 8 * size(x)"},
                               {"id": "no_callbacks"}],
                     "examples": hvp_cases[:1], "hidden": hvp_cases[1:]},
        "clip_mini": {**common, "id": "clip_mini", "entry_point": "clipped",
                      "parameters": [{"name": "w", "kind": "array", "dtype": "float32", "shape": ["d"]},
                                     {"name": "X", "kind": "array", "dtype": "float32", "shape": ["n", "d"]}],
                      "output": {"kind": "array", "shape_like": "w", "dtype": "float32"},
                      "probe_shapes": [{"name": "many", "dims": {"n": 512}}],
                      "rules": [{"id": "no_unrolling", "dim": "n"},
                                {"id": "forbidden_primitives", "primitives": ["while", "scan"]}],
                      "examples": clip_cases[:1], "hidden": clip_cases[1:]},
        "ema_mini": {**common, "id": "ema_mini", "entry_point": "ema",
                     "parameters": [{"name": "x", "kind": "array", "dtype": "float32", "shape": ["T"]},
                                    {"name": "decay", "kind": "float", "traced": False}],
                     "output": {"kind": "array", "shape_like": "x", "dtype": "float32"},
                     "probe_shapes": [{"name": "long", "dims": {"T": 2048}}],
                     "rules": [{"id": "required_primitives", "primitives": ["scan"]},
                               {"id": "no_unrolling", "dim": "T"},
                               {"id": "max_intermediate_size", "bound": "4 * size(x)"}],
                     "examples": ema_cases[:1], "hidden": ema_cases[1:]},
    }


HVP_F = "f = lambda y: jnp.sum(jnp.tanh(W @ y))\n"
SUBMISSIONS = {
    # hvp_mini: the d x d Hessian is never built
    ("hvp_mini", "jvp_of_grad"): (Verdict.AC, None, HVP_F + "return jax.jvp(jax.grad(f), (x,), (v,))[1]"),
    ("hvp_mini", "grad_of_vdot"): (Verdict.AC, None, HVP_F + "return jax.grad(lambda y: jnp.vdot(jax.grad(f)(y), v))(x)"),
    ("hvp_mini", "linearize_jit"): (Verdict.AC, None, HVP_F + "return jax.jit(jax.linearize(jax.grad(f), x)[1])(v)"),
    ("hvp_mini", "formula"): (Verdict.AC, None, "t = jnp.tanh(W @ x)\nreturn W.T @ (-2 * t * (1 - t ** 2) * (W @ v))"),
    ("hvp_mini", "hessian"): (Verdict.RJ, "intermediate_too_large", HVP_F + "return jax.hessian(f)(x) @ v"),
    ("hvp_mini", "jacfwd_of_grad"): (Verdict.RJ, "intermediate_too_large", HVP_F + "return jax.jacfwd(jax.grad(f))(x) @ v"),
    ("hvp_mini", "gram"): (Verdict.RJ, "intermediate_too_large",
                           "t = jnp.tanh(W @ x)\nH = (W.T * (-2 * t * (1 - t ** 2))) @ W\nreturn H @ v"),
    # honest at the probe shape, a Hessian at the sizes cases have: caught on the wide case
    ("hvp_mini", "switch_on_size"): (Verdict.RJ, "dim_read_as_number", HVP_F +
                                     "if x.shape[0] > 1000:\n    return jax.jvp(jax.grad(f), (x,), (v,))[1]\n"
                                     "return jax.hessian(f)(x) @ v"),
    # a Hessian only where jit is disabled: values and rules come from one trace, without
    # disable_jit, so the Hessian branch never runs and the submission is judged on what it did
    ("hvp_mini", "hessian_when_jit_disabled"): (Verdict.AC, None, HVP_F +
                                                "if jax.config.jax_disable_jit:\n    return jax.hessian(f)(x) @ v\n"
                                                "return jax.jvp(jax.grad(f), (x,), (v,))[1]"),
    # clip_mini: per-example gradients batched, no loop over examples
    ("clip_mini", "vmap_grad"): (Verdict.AC, None,
                                 "g = jax.vmap(jax.grad(lambda w_, xi: 0.5 * jnp.dot(xi, w_) ** 2), (None, 0))(w, X)\n"
                                 "n = jnp.linalg.norm(g, axis=1, keepdims=True)\nreturn jnp.mean(g / jnp.maximum(1.0, n), axis=0)"),
    ("clip_mini", "batched_formula"): (Verdict.AC, None,
                                       "g = (X @ w)[:, None] * X\nn = jnp.sqrt(jnp.sum(g * g, axis=1, keepdims=True))\n"
                                       "return (g / jnp.maximum(1.0, n)).mean(0)"),
    ("clip_mini", "python_loop"): (Verdict.RJ, "dim_read_as_number",
                                   "acc = jnp.zeros_like(w)\nfor i in range(X.shape[0]):\n    g = jnp.dot(X[i], w) * X[i]\n"
                                   "    acc = acc + g / jnp.maximum(1.0, jnp.linalg.norm(g))\nreturn acc / X.shape[0]"),
    ("clip_mini", "comprehension"): (Verdict.RJ, "dim_read_as_number",
                                     "gs = jnp.stack([jax.grad(lambda w_: 0.5 * jnp.dot(xi, w_) ** 2)(w) for xi in X])\n"
                                     "return jnp.mean(gs / jnp.maximum(1.0, jnp.linalg.norm(gs, axis=1, keepdims=True)), 0)"),
    # batched only at the extents the judge once traced at: n traced as a symbol is no extent
    ("clip_mini", "loop_except_3_and_7"): (Verdict.RJ, "dim_read_as_number",
                                           "if X.shape[0] in (3, 7, 512):\n    g = (X @ w)[:, None] * X\n"
                                           "else:\n    g = jnp.stack([jnp.dot(xi, w) * xi for xi in X])\n"
                                           "return (g / jnp.maximum(1.0, jnp.linalg.norm(g, axis=1, keepdims=True))).mean(0)"),
    ("clip_mini", "lax_map"): (Verdict.RJ, "forbidden_primitive",
                               "g = jax.lax.map(lambda xi: jnp.dot(xi, w) * xi, X)\n"
                               "return (g / jnp.maximum(1.0, jnp.linalg.norm(g, axis=1, keepdims=True))).mean(0)"),
    ("clip_mini", "fori_loop"): (Verdict.RJ, "forbidden_primitive",
                                 "def body(i, acc):\n    g = jnp.dot(X[i], w) * X[i]\n"
                                 "    return acc + g / jnp.maximum(1.0, jnp.linalg.norm(g))\n"
                                 "return jax.lax.fori_loop(0, X.shape[0], body, jnp.zeros_like(w)) / X.shape[0]"),
    # ema_mini: a scan, no loop, no T x T weights
    ("ema_mini", "scan"): (Verdict.AC, None,
                           "def step(m, v):\n    m = decay * m + (1 - decay) * v\n    return m, m\n"
                           "return jax.lax.scan(step, jnp.zeros((), x.dtype), x)[1]"),
    ("ema_mini", "fori_static"): (Verdict.AC, None,
                                  "def body(t, c):\n    m, out = c\n    m = decay * m + (1 - decay) * x[t]\n"
                                  "    return m, out.at[t].set(m)\n"
                                  "return jax.lax.fori_loop(0, x.shape[0], body, (jnp.float32(0), jnp.zeros_like(x)))[1]"),
    ("ema_mini", "python_loop"): (Verdict.RJ, "dim_read_as_number",
                                  "m, out = 0.0, []\nfor t in range(x.shape[0]):\n    m = decay * m + (1 - decay) * x[t]\n"
                                  "    out.append(m)\nreturn jnp.stack(out).astype(x.dtype)"),
    # a scan whose result is thrown away computes nothing: it does not count as the scan
    ("ema_mini", "dummy_scan_and_loop"): (Verdict.RJ, "dim_read_as_number",
                                          "jax.lax.scan(lambda c, v: (c, v), 0.0, x)\nm, out = 0.0, []\n"
                                          "for t in range(x.shape[0]):\n    m = decay * m + (1 - decay) * x[t]\n"
                                          "    out.append(m)\nreturn jnp.stack(out).astype(x.dtype)"),
    ("ema_mini", "dummy_scan_and_weights"): (Verdict.RJ, "intermediate_too_large",
                                             "_, z = jax.lax.scan(lambda c, v: (c, v * 0), 0.0, x)\n"
                                             "t = jnp.arange(x.shape[0])\nk = t[:, None] - t[None, :]\n"
                                             "w = jnp.where(k >= 0, (1 - decay) * decay ** jnp.maximum(k, 0), 0.0)\n"
                                             "return (w @ x + z).astype(x.dtype)"),
    ("ema_mini", "while_loop"): (Verdict.RJ, "missing_primitive",
                                 "def body(c):\n    t, m, out = c\n    m = decay * m + (1 - decay) * x[t]\n"
                                 "    return t + 1, m, out.at[t].set(m)\n"
                                 "return jax.lax.while_loop(lambda c: c[0] < x.shape[0], body,\n"
                                 "                          (0, jnp.float32(0), jnp.zeros_like(x)))[2]"),
}
SIGNATURES = {"hvp_mini": "hvp(W, x, v)", "clip_mini": "clipped(w, X)", "ema_mini": "ema(x, decay)"}


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    root = tmp_path_factory.mktemp("track")
    (root / "problems").mkdir()
    (root / "reference").mkdir()
    for pid, data in _specs().items():
        (root / "problems" / f"{pid}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    for (pid, name), (_, _, body) in SUBMISSIONS.items():
        path = root / "subs" / pid / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("import jax\nimport jax.numpy as jnp\n\n\ndef " + SIGNATURES[pid] + ":\n"
                        + textwrap.indent(body, "    ") + "\n")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("pid, name", sorted(SUBMISSIONS))
def test_rules_tell_honest_from_structural_cheats(track, pid, name):
    """Honest solutions graded as a student's (source gate on); cheats with the gate off, so
    that the rules, the layer under test, are what refuses them."""
    verdict, reason, _ = SUBMISSIONS[pid, name]
    problem = spec.load(track / "problems" / f"{pid}.yaml")
    gate = verdict is Verdict.AC and "jax_disable_jit" not in SUBMISSIONS[pid, name][2]
    result = grading.grade(problem, track / "subs" / pid / f"{name}.py", use_cache=False, hints=False,
                           source_gate=gate)
    messages = [f"{c.verdict.value} {c.reason}: {c.message}" for c in result.cases]
    assert result.verdict is verdict, messages
    if reason:
        assert result.reason == reason, messages


def test_a_rule_message_says_what_was_found_and_the_bound(track):
    problem = spec.load(track / "problems" / "hvp_mini.yaml")
    result = grading.grade(problem, track / "subs" / "hvp_mini" / "hessian.py", use_cache=False, hints=False)
    example = result.cases[0]
    # the program traced with d and m as symbols: both polynomials, the primitive and a point
    assert "traced with d, m symbolic" in example.message and "(d, 1, d)" in example.message
    assert "d^2 elements" in example.message and "4 * size(W) + 8 * size(x)" in example.message
    assert "dot_general" in example.message and "at d = " in example.message


# --- required_primitives: a choice of primitives, and a loop JAX emptied ----------------------

FORWARDED_SCAN_AND_CUMSUM = '''
import jax
import jax.numpy as jnp


def ema(x, decay):
    # a scan whose step hands its carry back unchanged: JAX forwards the carry around it, and
    # the closed form beside it computes the output
    jax.lax.scan(lambda c, v: (c, None), jnp.float32(0), x)
    t = jnp.arange(x.shape[0])
    scaled = jnp.cumsum(x * decay ** (-t.astype(x.dtype)))
    return ((1 - decay) * decay ** t.astype(x.dtype) * scaled).astype(x.dtype)
'''


@pytest.fixture(scope="module")
def ema_choice(tmp_path_factory):
    """ema_mini whose only rule asks for a scan or a while loop."""
    data = {**_specs()["ema_mini"], "id": "ema_choice",
            "rules": [{"id": "required_primitives", "primitives": [["scan", "while"]]}]}
    path = tmp_path_factory.mktemp("choice") / "ema_choice.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return spec.load(path)


def test_a_primitive_item_that_is_a_list_is_a_choice(ema_choice, track):
    assert rules.describe(ema_choice.rules[0]).startswith("the traced program must use scan or while")
    result = grading.grade(ema_choice, track / "subs" / "ema_mini" / "while_loop.py",
                           use_cache=False, hints=False, source_gate=True)
    assert result.verdict is Verdict.AC, [c.message for c in result.cases]


def test_a_missing_choice_is_named_with_its_alternatives(ema_choice, tmp_path):
    path = tmp_path / "closed_form.py"
    path.write_text(FORWARDED_SCAN_AND_CUMSUM.replace("    jax.lax.scan(lambda c, v: (c, None), "
                                                      "jnp.float32(0), x)\n", ""))
    result = grading.grade(ema_choice, path, use_cache=False, hints=False, examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "missing_primitive"), result.message
    assert "no scan or while computes the output" in result.message
    assert "empty loop" not in result.message


def test_a_loop_jax_emptied_is_named_in_the_message(track, tmp_path):
    path = tmp_path / "forwarded_scan.py"
    path.write_text(FORWARDED_SCAN_AND_CUMSUM)
    problem = spec.load(track / "problems" / "ema_mini.yaml")
    result = grading.grade(problem, path, use_cache=False, hints=False, examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "missing_primitive"), result.message
    assert "the program has scan, but nothing the output needs comes out of it" in result.message
    assert "JAX forwards around the loop" in result.message


@pytest.mark.parametrize("primitives, key, says", [
    ([["scan"]], "rules[0].primitives[0] ", "is too short"),
    ([["scan", "scan"]], "rules[0].primitives[0] ", "non-unique"),
    ([["Scan!", "while"]], "rules[0].primitives[0][0] ", "does not match"),
])
def test_a_bad_choice_names_the_file_line_and_key(tmp_path, primitives, key, says):
    data = {**_specs()["ema_mini"], "id": "ema_bad",
            "rules": [{"id": "required_primitives", "primitives": primitives}]}
    path = tmp_path / "ema_bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(SpecError) as info:
        spec.load(path)
    text = str(info.value)
    assert "ema_bad.yaml: " + key + "(line " in text and says in text, text
