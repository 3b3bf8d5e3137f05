"""Rules that read dtypes (``primitive_dtypes``), ``no_unrolling`` keyed on a static int
parameter, and the spec keys that state them: the worker's summary of live equations by
dtype, the rule's decisions on summaries, its spec errors, and the traces a rule keyed on a
parameter asks for. End to end, the problems that use them have their own test files
(tests/test_problem_spectral_norm.py, tests/test_problem_mixed_precision_step.py)."""

import dataclasses
from types import MappingProxyType

import jax
import jax.numpy as jnp
import pytest

from judge import rules
from judge.errors import SpecError
from judge.rules import no_unrolling, primitive_dtypes
from judge.worker.protocol import ProtocolError
from judge.run.summary import program as decode
from judge.worker import program
from tests.test_rule_vocabulary import _load, _with


def _typed(fn, *args):
    return decode(program.summarize(jax.make_jaxpr(fn)(*args)), "program")


def _half_grad(w, x):
    w16, x16 = w.astype(jnp.float16), x.astype(jnp.float16)
    return jax.grad(lambda w: jnp.sum(jnp.tanh(x16 @ w)))(w16).astype(jnp.float32)


W, X = jnp.ones((3, 2)), jnp.ones((4, 3))


def test_the_summary_counts_live_equations_by_dtype():
    typed = _typed(_half_grad, W, X).typed
    dots = {k: n for k, n in typed.items() if k[0] == "dot_general"}
    assert dots and all(k[1] == ("float16", "float16") and k[2] == ("float16",) for k in dots)
    assert sum(dots.values()) == 2  # the forward product and W's gradient; x's is not needed
    # a float32 product whose result is thrown away is not live
    dead = _typed(lambda w, x: (x @ w, _half_grad(w, x))[1], W, X).typed
    assert not any(k[0] == "dot_general" and "float32" in k[1] for k in dead)
    # inside a loop body, counted once per equation of the body
    looped = _typed(lambda w, x: jax.lax.fori_loop(0, 3, lambda i, a: a + _half_grad(w, x), w), W, X).typed
    assert any(k[0] == "dot_general" and k[1] == ("float16", "float16") for k in looped)


def test_the_summary_counts_operands_computed_from_input_arrays():
    """An operand is data when it is computed from an input of at least one dimension, not
    through a bool: a product with a number, a value of shape () or a constant has one data
    operand, a product of two values computed from the arrays two, even entry by entry, inside
    a jit, a cond or a loop."""
    def muls(fn, *args):
        typed = _typed(fn, *args).typed
        return sorted(k[3] for k, n in typed.items() for _ in range(n) if k[0] in ("mul", "div"))

    g, s, x, dz = jnp.ones((3, 2)), jnp.float32(4.0), jnp.ones((4, 3)), jnp.ones((4, 2))
    assert muls(lambda g, s: 0.1 * g / s, g, s) == [1, 1]
    assert muls(lambda g, s: g * jnp.broadcast_to(s, g.shape), g, s) == [1]
    assert muls(lambda g, s: g * jnp.full(g.shape, 2.0) * (s * s), g, s) == [0, 1, 1]
    assert muls(lambda x, dz: x[:, :, None] * dz[:, None, :], x, dz) == [2]
    assert muls(lambda x, dz: x[1, 2] * dz[0, 1], x, dz) == [2]  # one entry at a time
    assert muls(lambda g, s: g * g, g, s) == [2]
    assert muls(lambda x, dz: jax.jit(lambda a, b: a.sum() * b)(x, dz), x, dz) == [2]
    assert muls(lambda x, dz: jax.jit(lambda a, b: 2.0 * b)(x, dz), x, dz) == [1]
    assert muls(lambda g, s: jax.lax.cond(s > 0, lambda a, b: a * b, lambda a, b: b, s, g), g, s) == [1]
    assert muls(lambda g, s: jax.lax.fori_loop(0, 3, lambda i, c: c * g, g), g, s) == [2]
    # a bool is a decision, not data: the scale chosen by it is not computed from the arrays
    assert muls(lambda g, s: jnp.where(jnp.isfinite(g).all(), s, s / 2) * jnp.where(g.sum() > 0, 2.0, 1.0),
                g, s) == [0, 0]


@pytest.mark.parametrize("raw, says", [
    ([["dot_general", ["float16"], ["float16"], 0, 1]], "an integer from 1"),
    ([["dot_general", "float16", ["float16"], 1, 1]], "expected [primitive"),
    ([["dot_general", ["float16"], ["float16"], 1, 1]] * 2, "twice"),
    ([["dot_general", ["float16"] * 17, ["float16"], 1, 1]], "expected [primitive"),
    ([["dot_general", ["float16"], ["float16"], 1]], "widened operands]"),
    ([["dot_general", ["float16"], ["float16"], 1, 17]], "an integer from 0 to 16"),
    ([["dot_general", ["float16"], ["float16"], 1, 1, 17]], "an integer from 0 to 16"),
    ([["dot_general", ["float16"], ["float16"], 1, 1, 0, 0]], "widened operands]"),
])
def test_a_forged_dtype_summary_is_refused(raw, says):
    summary = program.summarize(jax.make_jaxpr(lambda w: w * 2)(W))
    summary["typed"] = raw
    with pytest.raises(ProtocolError, match=says.replace("[", r"\[")):
        decode(summary, "program")


def _trace(typed, omitted=0):
    from judge.run.boundary import Program
    return rules.TraceEvidence(label="this case", shapes={}, program=Program(
        equations=1, primitives={}, largest=(), typed=MappingProxyType(typed), typed_omitted=omitted))


HALF = {"primitives": ["dot_general"], "dtypes": ["float16"], "of": "operands", "at_least": 2}
WIDE = {"primitives": ["dot_general", "tanh"], "dtypes": ["float32", "bfloat16"]}
RULE = {"id": "primitive_dtypes", "require": [HALF], "forbid": [WIDE]}
F16_DOT = ("dot_general", ("float16", "float16"), ("float16",), 2)


@pytest.mark.parametrize("typed, omitted, reason, words", [
    ({F16_DOT: 3}, 0, None, ""),
    ({F16_DOT: 1}, 0, "wrong_precision", "1 equation computing the output is dot_general"),
    ({F16_DOT: 3, ("dot_general", ("float32", "float32"), ("float32",), 2): 1}, 0, "wrong_precision",
     "this problem forbids"),
    # float16 operands, a float32 result (preferred_element_type): forbidden on the result side
    ({F16_DOT: 3, ("dot_general", ("float16", "float16"), ("float32",), 2): 1}, 0, "wrong_precision",
     "dot_general(float16, float16) -> float32"),
    ({F16_DOT: 3, ("tanh", ("bfloat16",), ("bfloat16",), 1): 2}, 0, "wrong_precision", "2 equations"),
    ({F16_DOT: 3}, 4, "wrong_precision", "4 left out"),
    ({}, 0, "wrong_precision", "it has no live dot_general"),
])
def test_primitive_dtypes_decides_on_the_live_equations(typed, omitted, reason, words):
    breach = primitive_dtypes.check(RULE, _trace(typed, omitted), None)
    assert (breach and breach.reason) == reason
    assert words in (breach.message if breach else "")


def test_widened_matches_only_float16_work_reading_data_computed_outside_float16():
    rule = {"id": "primitive_dtypes", "forbid": [{"primitives": ["dot_general", "mul"],
                                                  "dtypes": ["float16"], "of": "operands", "widened": 1}]}
    honest = {("dot_general", ("float16", "float16"), ("float16",), 2, 0): 3,
              ("mul", ("float32", "float32"), ("float32",), 1, 0): 2}
    assert primitive_dtypes.check(rule, _trace(honest), None) is None
    assert primitive_dtypes.check(rule, _trace({("dot_general", ("float16", "float16"), ("float16",), 2): 3}),
                                  None) is None  # a summary without the count: none widened
    head = {**honest, ("mul", ("float16", "float16"), ("float16",), 1, 1): 1}
    breach = primitive_dtypes.check(rule, _trace(head), None)
    assert breach.reason == "wrong_precision"
    assert "mul(float16, float16) -> float16 with 1 operand computed outside float16" in breach.message
    assert "another type than float16" in primitive_dtypes.describe(rule)


def test_primitive_dtypes_reads_the_names_a_primitive_had():
    rule = {"id": "primitive_dtypes", "forbid": [{"primitives": ["jit"], "dtypes": ["float32"]}]}
    breach = primitive_dtypes.check(rule, _trace({("pjit", ("float32",), ("float32",), 1): 1}), None)
    assert breach is not None and breach.reason == "wrong_precision"



def test_a_rule_may_name_any_dtype_a_traced_value_can_have(tmp_path):
    """A float16 backward pass can be imitated in a type no parameter has (complex64, or an
    integer type as fixed point): the summary names it, a rule may name it and refuses it, and
    a parameter still cannot have it."""
    typed = _typed(lambda a: a @ a, jnp.ones((2, 2), jnp.complex64)).typed
    assert any(k[0] == "dot_general" and k[1] == ("complex64", "complex64") for k in typed)
    rule = {"id": "primitive_dtypes", "forbid": [{"primitives": ["dot_general"],
                                                  "dtypes": ["complex64", "int8", "uint32"]}]}
    _load(tmp_path, _with_K(rules=[rule]))
    breach = primitive_dtypes.check(rule, _trace(typed), None)
    assert breach is not None and breach.reason == "wrong_precision"
    data = _with_K()
    data["parameters"][0]["dtype"] = "complex64"
    with pytest.raises(SpecError, match="complex64"):
        _load(tmp_path, data)

PRODUCTS = {"id": "primitive_dtypes", "forbid": [
    {"primitives": ["mul", "div"], "dtypes": ["float32"], "of": "operands", "data": 2}]}
F32_MUL = ("mul", ("float32", "float32"), ("float32",))


@pytest.mark.parametrize("typed, reason", [
    ({F32_MUL + (1,): 3, F32_MUL + (0,): 1}, None),               # lr * g, loss_scale * 2
    ({F32_MUL + (1,): 3, F32_MUL + (2,): 1}, "wrong_precision"),  # x * dz
    ({("mul", ("float16", "float16"), ("float16",), 2): 4}, None),
])
def test_primitive_dtypes_counts_only_equations_of_enough_data_operands(typed, reason):
    breach = primitive_dtypes.check(PRODUCTS, _trace(typed), None)
    assert (breach and breach.reason) == reason
    if breach:
        assert "mul(float32, float32) -> float32 with 2 data operands" in breach.message
        assert "with 1 data operand" not in breach.message  # only what the entry forbids


ONE_PASS = {"id": "primitive_dtypes", "require": [
    {"primitives": ["dot_general"], "dtypes": ["float32"], "of": "operands", "data": 2,
     "at_least": 0, "at_most": 2, "says": "x @ w once, and its gradient"}]}
F32_DOT = ("dot_general", ("float32", "float32"), ("float32",))


@pytest.mark.parametrize("typed, reason", [
    ({F32_DOT + (2,): 2}, None),
    ({F32_DOT + (2,): 2, F32_DOT + (1,): 1, F32_DOT + (0,): 1}, None),  # a one-hot's products
    ({}, None),                                                        # at_least 0
    ({F32_DOT + (2,): 3}, "repeated_computation"),
    # a ragged dot of one group is x @ w under another primitive's name: counted as a dot_general
    ({F32_DOT + (2,): 2, ("ragged_dot_general", ("float32", "float32", "int32"), ("float32",), 2): 1},
     "repeated_computation"),
])
def test_at_most_caps_the_matching_equations_with_its_own_reason(typed, reason):
    breach = primitive_dtypes.check(ONE_PASS, _trace(typed), None)
    assert (breach and breach.reason) == reason
    if breach:
        assert "3 equations" in breach.message and "allows at most 2" in breach.message
        assert breach.message.endswith("(x @ w once, and its gradient)")
    assert rules.describe(ONE_PASS).startswith("at most 2 dot_general with operands in float32")


def test_primitive_dtypes_is_described_for_the_statement():
    text = rules.describe(RULE)
    assert "at least 2 dot_general with operands in float16" in text
    assert "no dot_general or tanh with operands or results in float32 or bfloat16" in text
    assert ("no mul or div with operands in float32 and at least 2 operands computed from the input "
            "arrays") in rules.describe(PRODUCTS)


# --- spec keys ---------------------------------------------------------------------------------

STATIC_K = {"name": "K", "kind": "int", "traced": False, "minimum": 1, "maximum": 64}


def _with_K(**changes):
    data = _with(**changes)
    data["parameters"].append(dict(STATIC_K))
    data["examples"][0]["input"]["K"] = 3
    return data


@pytest.mark.parametrize("changes, where, says", [
    ({"rules": [{"id": "primitive_dtypes"}]}, ["rules", 0, "id"], "give require, forbid"),
    ({"rules": [{"id": "primitive_dtypes", "forbid": [{"primitives": ["dot_general"], "dtypes": ["f16"]}]}]},
     ["rules", 0], ""),
    ({"rules": [{"id": "primitive_dtypes", "forbid": [{"primitives": ["dot_general"], "dtypes": ["float16"],
                                                       "at_least": 2}]}]},
     ["rules", 0], ""),
    ({"rules": [{"id": "primitive_dtypes", "require": [{"primitives": ["dot_general"], "dtypes": ["float32"],
                                                        "at_least": 3, "at_most": 2}]}]},
     ["rules", 0, "require"], "entry 0: at_most 2 is below at_least"),
    ({"rules": [{"id": "no_unrolling", "parameter": "k"}]}, ["rules", 0, "parameter"],
     "not a static int parameter"),
    ({"rules": [{"id": "no_unrolling", "parameter": "W"}]}, ["rules", 0, "parameter"],
     "static ints: K"),
    ({"rules": [{"id": "no_unrolling", "parameter": "K", "dim": "d"}]}, ["rules", 0], ""),
    ({"rules": [{"id": "no_unrolling", "parameter": "K", "sizes": [3, 99]}]}, ["rules", 0, "sizes"],
     "99 is outside K's range 1 to 64"),
])
def test_spec_errors_name_the_file_line_and_key(tmp_path, changes, where, says):
    with pytest.raises(SpecError, match=says) as info:
        _load(tmp_path, _with_K(**changes))
    error = info.value
    assert list(error.steps[:len(where)]) == where
    assert error.path.endswith("mini.yaml") and error.line is not None
    assert f"(line {error.line})" in str(error)


def test_a_parameter_without_a_range_cannot_key_a_loop_rule(tmp_path):
    data = _with_K(rules=[{"id": "no_unrolling", "parameter": "K"}])
    del data["parameters"][-1]["maximum"]
    with pytest.raises(SpecError, match="range of at least two values"):
        _load(tmp_path, data)


def test_a_loop_rule_keyed_on_a_parameter_traces_at_three_of_its_values(tmp_path):
    problem = _load(tmp_path, _with_K(rules=[{"id": "no_unrolling", "parameter": "K", "max_equations": 90}]))
    rule = problem.rules[0]
    found = no_unrolling.traces(rule, problem)
    assert [t.values["K"] for t in found] == [3, 7, 64]
    assert all(t.shapes == {"W": (1, 2), "x": (2,)} and t.values["k"] == 1.0 for t in found)
    # beside a case: the case's own K and the others drawn in the range, traced the same way
    for _ in range(20):
        own, *others = no_unrolling.case_traces(rule, problem, {"W": (1, 2), "x": (2,)}, {"K": 5, "k": 1.0})
        assert own.values["K"] == 5 and 1 <= len(others) <= no_unrolling.OTHERS
        assert all(t.values["K"] != 5 and 1 <= t.values["K"] <= 64 for t in others)
        # with the problem's symbolic dims as symbols: the one at K = 5 is the case's symbolic
        # program, traced once (``judge.grade.plan.wanted``)
        assert all(t.shapes == {"W": ("m", "d"), "x": ("d",)} for t in [own, *others])
        assert all(t.symbols == {"m": (1, 4), "d": (1, 8)} for t in [own, *others])
    assert "must not grow with K" in rules.describe(rule) and "lax.fori_loop" in rules.describe(rule)


def test_one_step_is_never_compared_with_the_other_values_of_k(tmp_path):
    """``ys[-1]`` of a scan of length 1 is a squeeze without a slice: an equation fewer than at
    any other K. A case at K = 1 is compared through the values drawn beside it only, and
    those are never 1."""
    problem = _load(tmp_path, _with_K(rules=[{"id": "no_unrolling", "parameter": "K"}]))
    rule = problem.rules[0]
    for _ in range(40):
        assert 1 not in no_unrolling.others(rule, problem)
        found = no_unrolling.case_traces(rule, problem, {"W": (1, 2), "x": (2,)}, {"K": 1, "k": 1.0})
        assert len(found) == no_unrolling.OTHERS and all(t.values["K"] >= 2 for t in found)

    def last_estimate(K):
        return jax.make_jaxpr(lambda u: jax.lax.scan(lambda c, _: (c * 2, c), u, jnp.arange(K))[1][-1])(1.0)

    assert len(last_estimate(1).eqns) < len(last_estimate(2).eqns) == len(last_estimate(40).eqns)


def _counted(n, loops=True, label="K = 3"):
    """A program of ``n`` equations traced at ``label``; with ``loops``, a scan of K trips."""
    from judge.run.boundary import Program
    from judge.run.summary import Loop
    live = {"scan": 1} if loops else {"mul": 3}
    trips = label.rpartition(" = ")[2] if label.startswith("K = ") else "3"
    listed = (Loop(primitive="scan", length=trips, recurrent=True),) if loops else ()
    values = {"K": int(trips)} if label.startswith("K = ") else {}
    return rules.TraceEvidence(label=label, shapes={}, values=values, program=Program(
        equations=n, primitives=dict(live), largest=(), live=live, loops=listed), abstract=True)


@pytest.mark.parametrize("traces, words", [
    ([_counted(21), _counted(21, label="K = 7")], None),
    ([_counted(21), _counted(45, label="K = 7")], "grows with K (21 at K = 3, 45 at K = 7 equations)"),
    ([_counted(21, loops=False), _counted(21, loops=False, label="K = 7")], "no loop primitive"),
])
def test_across_values_of_the_parameter(traces, words):
    breach = no_unrolling.check_traces({"id": "no_unrolling", "parameter": "K"}, traces, None)
    assert (breach.message if breach else None) == words or words in breach.message


def test_on_a_case_the_two_values_must_give_as_many_equations():
    rule = {"id": "no_unrolling", "parameter": "K", "max_equations": 100}
    from dataclasses import replace
    case = replace(_counted(30, label="at this case's shapes"), abstract=False)
    same = replace(case, related=(_counted(25, label="K = 5"), _counted(25, label="K = 40")))
    assert no_unrolling.check(rule, same, None) is None  # the case's own count is not compared
    grows = replace(case, related=(_counted(25, label="K = 5"), _counted(61, label="K = 40")))
    assert "grows with K, 25 equations at K = 5 and 61 at K = 40" in no_unrolling.check(rule, grows, None).message
    assert "more than the 100" in no_unrolling.check(rule, replace(case, program=_counted(101).program),
                                                     None).message


def _f32_inside_cond(w, x):
    return jax.lax.cond(jnp.sum(x) > 0, lambda: _half_grad(w, x) + 0 * (x @ w).sum(),
                        lambda: _half_grad(w, x))


def _f32_inside_custom_jvp(w, x):
    @jax.custom_jvp
    def f(w):
        return (x @ w).sum() * 0 + _half_grad(w, x)

    f.defjvp(lambda primals, tangents: (f(*primals), tangents[0]))
    return f(w)


def _f32_inside_while(w, x):
    return jax.lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1] + (x @ w).sum() * 0),
                              (0, _half_grad(w, x)))[1]


def _f32_inside_jit(w, x):
    return jax.jit(lambda w: _half_grad(w, x) + 0 * (x @ w).sum())(w)


@pytest.mark.parametrize("fn", [_f32_inside_cond, _f32_inside_custom_jvp, _f32_inside_while,
                                _f32_inside_jit], ids=lambda f: f.__name__)
def test_a_float32_product_hidden_in_a_nested_body_is_seen(fn):
    """Attacks: a float32 product the output depends on, inside a cond branch, a custom_jvp
    function, a while body or a jit, beside an honest float16 gradient."""
    typed = _typed(fn, W, X).typed
    breach = primitive_dtypes.check(RULE, _trace(dict(typed)), None)
    assert breach is not None and breach.reason == "wrong_precision"
    assert "dot_general(float32, float32) -> float32" in breach.message


def test_a_trace_asked_for_twice_is_traced_once(tmp_path):
    """Two cases with the same shapes and the same K ask for the same traces beside them (the
    other values of K are drawn once for the grade): the tracing worker traces each program
    once, and both cases read its report. The program at the case's own K is not among them:
    the case's worker reports it, traced with the symbolic dims."""
    from judge.grade import plan, traces

    problem = _load(tmp_path, _with_K(rules=[{"id": "no_unrolling", "parameter": "K"}]))
    case = problem.cases[0]
    twin = dataclasses.replace(case, index=case.index + 1)
    wanted = plan.resolve(problem, [case, twin]).wanted
    first = sorted(w.index for w in wanted if w.owner == case.index)
    second = sorted(w.index for w in wanted if w.owner == twin.index)
    at_own = [w.index for w in wanted if w.owner is not None and w.trace.values["K"] == case.inputs["K"]]
    assert first == second and len(first) >= 1 and not at_own  # one program, traced once
    by_index: dict = {}
    for w in wanted:  # one index, one program
        by_index.setdefault(w.index, set()).add(rules.trace_key(w.trace))
    assert all(len(keys) == 1 for keys in by_index.values()) and len(by_index) < len(wanted)
    request = traces.request(problem, {"probes": None}, wanted)
    assert sorted(e["index"] for e in request["cases"]) == sorted(by_index)


def test_the_other_values_of_k_are_drawn_once_per_grade(tmp_path):
    """Cases at many values of K: the tracing worker traces ``OTHERS`` values drawn at random
    for the whole grade, not one more for every case, and no case's own K (its worker reports
    that program); every case is compared with each drawn value that is not its own; the next
    grade draws again; and the worker's order of the traces follows the programs, not the
    cases."""
    from judge.grade import plan, traces

    problem = _load(tmp_path, _with_K(rules=[{"id": "no_unrolling", "parameter": "K"}]))
    base = problem.cases[0]
    cases = [dataclasses.replace(base, index=base.index + i, inputs={**base.inputs, "K": k})
             for i, k in enumerate((1, 2, 5, 9, 17, 33, 40, 64, 5, 9))]
    pools = set()
    for _ in range(6):
        wanted = plan.resolve(problem, cases).wanted
        beside = [w for w in wanted if w.owner is not None]
        drawn = {w.trace.values["K"] for w in beside}
        at = {w.index: w.trace.values["K"] for w in beside}
        assert len(at) == len(drawn) <= no_unrolling.OTHERS  # each value traced once
        pool = set()
        for case in cases:
            mine = [w.trace.values["K"] for w in wanted if w.owner == case.index]
            assert len(mine) >= 1 and case.inputs["K"] not in mine
            pool |= set(mine)
        assert drawn == pool and len(pool) == no_unrolling.OTHERS
        pools.add(tuple(sorted(pool)))
        request = traces.request(problem, {"probes": None}, wanted)
        order = [e["args"] for e in request["cases"]]
        assert [e["index"] for e in request["cases"]] == sorted(e["index"] for e in request["cases"])
        by_key = sorted(at, key=lambda i: repr(next(
            (rules.trace_key(w.trace), tuple(sorted(w.trace.symbols.items()))) for w in beside if w.index == i)))
        assert by_key == sorted(at) and len(order) == len(at) + len({w.index for w in wanted if w.owner is None})
    assert len(pools) > 1  # drawn afresh for each grade (six grades drawing one pair: p < 1e-15)


def test_beside_a_case_a_tree_s_leaves_hold_the_symbolic_dims_too():
    """loss_and_grads with a static K and a loop rule keyed on it: the traces at the case's K
    and at another are traced with the case's symbolic dims, the tree's leaves included (from
    their extents and dtypes, not their values), as the case's own program is."""
    from judge.grade import plan, traces
    from judge.problem import spec
    from judge.problem.model import Parameter
    from tests.helpers import ROOT

    base = spec.load(ROOT / "problems" / "loss_and_grads.yaml")
    K = Parameter(name="K", kind="int", traced=False, minimum=1, maximum=64)
    problem = dataclasses.replace(
        base, parameters=base.parameters + (K,), rules=({"id": "no_unrolling", "parameter": "K"},),
        cases=tuple(dataclasses.replace(c, inputs={**c.inputs, "K": 5}) for c in base.cases))
    case = problem.cases[0]
    found = [t for _, t in rules.case_traces(problem, case.inputs)]
    assert [t.values["K"] for t in found][0] == 5 and 2 <= len(found) <= 1 + no_unrolling.OTHERS
    for t in found:
        assert t.trees == {"params": {"w": ("d", "k"), "b": ("k",)}} and "params" not in t.values
        assert t.shapes["x"] == ("n", "d") and t.dtypes["params"] == {"w": "float32", "b": "float32"}
    own = rules.symbolic_trace(problem, case.inputs)
    assert (own.shapes, own.trees, own.symbols) == (found[0].shapes, found[0].trees, found[0].symbols)
    wanted = plan.resolve(problem, [case]).beside(case)
    entry = traces.request(problem, {"probes": None}, wanted)["cases"][0]
    assert entry["abstract"]["params"] == {"shape": {"w": ["d", "k"], "b": ["k"]},
                                           "dtype": {"w": "float32", "b": "float32"}}
