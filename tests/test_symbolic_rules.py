"""Rules decided on symbols: the program traced once with the spec's dims as symbolic shapes
(``judge.worker.symbolic``, ``judge.worker.program``), sizes as polynomials proved against the
bound (``judge.rules.polynomial``), primitives that carry a function (``judge.rules.carriers``),
the recurrence role of ``required_primitives``; and the cheats and honest files of issue 33,
graded on the track problems (``tests/adversarial/structural/``)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.rules import carriers, polynomial
from judge.worker import program, symbolic

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = Path(__file__).resolve().parent / "adversarial" / "structural"


def _summary(fn, shape, names="T"):
    made = symbolic.dims(jax, {n: (1, 64) for n in names.split(",")})
    spec_ = jax.ShapeDtypeStruct(symbolic.shape(shape, made), jnp.float32)
    with symbolic.scan_length_shim():
        return program.summarize(jax.make_jaxpr(fn)(spec_), symbolic=True)


# --- polynomials ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, dim, degree", [
    ("d", "d", 1), ("d^2", "d", 2), ("m*floordiv(d, 2)", "d", 1), ("mod(d, 3)", "d", 0),
    ("2*d + 1", "d", 1), ("m", "d", 0), ("max(d, m)", "d", 1),
])
def test_degree_of_an_extent(text, dim, degree):
    assert polynomial.degree(polynomial.parse(text), dim) == degree


@pytest.mark.parametrize("text", ["__import__('os')", "d.real", "d ** x", "[d]", "d if d else 1", "lambda: 1"])
def test_extents_that_are_not_arithmetic_are_refused(text):
    with pytest.raises(polynomial.ExtentError):
        polynomial.parse(text)


def test_proofs_over_the_declared_ranges():
    d2 = lambda v: v["d"] * v["d"]  # noqa: E731
    linear = lambda v: 4 * v["m"] * v["d"] + 8 * v["d"] + v["m"] * v["m"]  # noqa: E731
    assert polynomial.proves(lambda v: v["m"] * v["m"], linear, {"m": (1, 16), "d": (1, 4096)}) == (True, None)
    held, where = polynomial.proves(d2, linear, {"m": (1, 16), "d": (1, 4096)})
    assert not held and where["d"] * where["d"] > linear(where)
    # no upper bound: proved only when bound - size has no negative coefficient
    assert polynomial.proves(lambda v: 16 * v["d"], lambda v: 24 * v["d"], {"d": (1, None)}) == (True, None)
    # ... and where it is not, with a point among the smaller extents where it fails
    assert polynomial.proves(d2, lambda v: 24 * v["d"], {"d": (1, None)}) == (False, {"d": 25})


# --- the summary of a program traced with symbolic dims --------------------------------------

def test_a_hessian_is_a_d_by_d_value_and_an_hvp_is_not():
    made = symbolic.dims(jax, {"d": (1, 4096)})
    specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in ((4, made["d"]), (made["d"],), (made["d"],))]
    f = lambda W: (lambda y: jnp.sum(jnp.tanh(W @ y)))  # noqa: E731
    hess = program.summarize(jax.make_jaxpr(lambda W, x, v: jax.hessian(f(W))(x) @ v)(*specs), symbolic=True)
    hvp = program.summarize(jax.make_jaxpr(lambda W, x, v: jax.jvp(jax.grad(f(W)), (x,), (v,))[1])(*specs),
                            symbolic=True)
    assert any(s["shape"] == ["d", "d"] for s in hess["shapes"])
    assert max(sum(polynomial.degree(polynomial.parse(e), "d") for e in s["shape"]) for s in hvp["shapes"]) == 1


def test_reading_a_symbolic_dim_as_a_number_is_told_apart():
    made = symbolic.dims(jax, {"d": (1, 4096)})
    x = jax.ShapeDtypeStruct((made["d"],), jnp.float32)
    for fn in (lambda y: [y[i] for i in range(y.shape[0])][0],
               lambda y: y if y.shape[0] < 12 else -y,
               lambda y: y.reshape(int(y.shape[0] ** 0.5), -1),
               lambda y: y[y.shape[0] - 1],        # an index that is a dim: JAX refuses it
               lambda y: jnp.stack([y, y])[:, 0] + y[:2][y.shape[0] // 4]):
        with pytest.raises(Exception) as caught:
            jax.make_jaxpr(fn)(x)
        assert symbolic.is_symbolic_error(jax, caught.value)
    assert not symbolic.is_symbolic_error(jax, ValueError("something else"))
    for wrong in (lambda y: y[1.5], lambda y: y["first"]):   # a mistake at any shape
        with pytest.raises(Exception) as caught:
            jax.make_jaxpr(wrong)(x)
        assert not symbolic.is_symbolic_error(jax, caught.value), caught.value


def test_a_dim_read_as_a_number_is_reported_without_the_scope_s_address():
    """JAX names the judge's scope of dims by its address in memory and the judge's own source
    line: the message a student reads keeps the comparison and the ranges, the same from one
    worker and machine to the next (the two evaluators' reports of a submission are compared)."""
    from judge.worker.output_data import describe_error

    made = symbolic.dims(jax, {"m": (1, 32), "n": (1, 32)})
    x = jax.ShapeDtypeStruct((made["m"], made["n"]), jnp.float32)
    with pytest.raises(Exception) as caught:
        jax.make_jaxpr(lambda y: y if y.shape[0] * y.shape[1] <= 64 else -y)(x)
    assert "symbolic scope" in str(caught.value)  # what JAX says, address and all
    message = describe_error(caught.value, "exception", "/nowhere.py")["message"]
    assert "symbolic scope" not in message and "symbolic.py" not in message
    assert "inconclusive" in message and "The ranges of the dims:" in message
    assert "m <= 32" in message and "n <= 32" in message
    # a submission's own text of that shape, a megabyte on one line, is cut before it is read
    flood = RuntimeError("Using symbolic scope 1 created at " * 30_000)
    said = describe_error(flood, "exception", "/nowhere.py")["message"]
    assert said.endswith(" [...]") and len(said) <= 2000 + len(" [...]")


def test_an_equality_the_ranges_decide_is_not_a_dim_read_as_number(tmp_path, monkeypatch):
    """A guard against an empty input (``T == 0`` where T is at least 1) or past the range keeps
    JAX's answer; ``T == 1``, which depends on T's value, is reading it as a number."""
    source = tmp_path / "guards.py"
    source.write_text("def empty(y):\n    return y if y.shape[0] == 0 else 2 * y\n\n"
                      "def past(y):\n    return -y if y.shape[0] != 65 else y\n\n"
                      "def one(y):\n    return y if y.shape[0] == 1 else 2 * y\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import guards

    x = jax.ShapeDtypeStruct((symbolic.dims(jax, {"T": (1, 64)})["T"], 2), jnp.float32)
    for fn in (guards.empty, guards.past):
        with symbolic.scan_length_shim(str(source)):
            jax.make_jaxpr(fn)(x)
    with pytest.raises(Exception) as caught, symbolic.scan_length_shim(str(source)):
        jax.make_jaxpr(guards.one)(x)
    assert symbolic.is_symbolic_error(jax, caught.value)


def _ema_scan(x, decay=0.9):
    return jax.lax.scan(lambda m, r: ((decay * m + (1 - decay) * r),) * 2, jnp.zeros_like(x[0]), x)[1]


def _ema_fori(x, decay=0.9):
    def body(t, state):
        m, out = state
        m = decay * m + (1.0 - decay) * x[t]
        return m, out.at[t].set(m)
    return jax.lax.fori_loop(0, x.shape[0], body, (jnp.zeros_like(x[0]), jnp.zeros_like(x)))[1]


def _ema_ref(x, decay=0.9):
    buf = jax.new_ref(jnp.zeros_like(x))

    def step(m, t):
        m = decay * m + (1 - decay) * x[t]
        buf[t] = m
        return m, None
    jax.lax.scan(step, jnp.zeros_like(x[0]), jnp.arange(x.shape[0]))
    return buf[...]


def _ema_length(x, decay=0.9):
    def step(carry, _):
        t, m = carry
        m = decay * m + (1 - decay) * jax.lax.dynamic_index_in_dim(x, t, keepdims=False)
        return (t + 1, m), m
    return jax.lax.scan(step, (0, jnp.zeros_like(x[0])), None, length=x.shape[0])[1]


def _carryless(x, decay=0.9):
    t = jnp.arange(x.shape[0])
    row = lambda c, i: (c, jnp.where(t <= i, decay ** (i - t), 0.0) @ x)  # noqa: E731
    return jax.lax.scan(row, None, t)[1]


def _counter_only(x, decay=0.9):
    t = jnp.arange(x.shape[0])
    row = lambda c, i: (c + 1, jnp.where(t <= c, decay ** (c - t), 0.0) @ x)  # noqa: E731
    return jax.lax.scan(row, 0, t)[1]


def _copying(x, decay=0.9):
    return x * 0.5 + jax.lax.scan(lambda c, r: (c, r), jnp.zeros_like(x[0]), x)[1]


def _zero_rows(x, decay=0.9):
    return x + jax.lax.scan(lambda m, r: (m * decay + r, None), jnp.zeros_like(x[0]), x[:0])[0]


def _unused_ref_writes(x, decay=0.9):
    buf = jax.new_ref(jnp.zeros_like(x))

    def step(m, t):
        m = decay * m + (1 - decay) * x[t]
        buf[t] = m
        return m, None
    jax.lax.scan(step, jnp.zeros_like(x[0]), jnp.arange(x.shape[0]))
    return x * 2.0


@pytest.mark.parametrize("fn, recurrence", [
    (_ema_scan, True), (_ema_fori, True), (_ema_ref, True), (_ema_length, True),
    (_carryless, False), (_counter_only, False), (_copying, False), (_zero_rows, False),
    (_unused_ref_writes, False),
])
def test_a_recurrence_over_T(fn, recurrence):
    summary = _summary(fn, ("T", 2))
    found = any(lp["recurrent"] and lp["length"] == "T" for lp in summary["loops"])
    assert found is recurrence, summary["loops"]


@pytest.mark.parametrize("fn, carrier", [
    (lambda x: jax.lax.reduce(x, 0.0, lambda a, b: a + b * 2, (0,)), "reduce"),
    (lambda x: jax.lax.reduce_window(x, 0.0, lambda a, b: a + b, (2, 1), (1, 1), "VALID"), "reduce_window"),
    (lambda x: jax.lax.custom_linear_solve(lambda v: v * 2, x[0], lambda mv, b: b / 2), "custom_linear_solve"),
    (lambda x: jax.lax.sort((x[:, 0], x[:, 1]), num_keys=1)[1], "sort"),
])
def test_primitives_that_carry_a_function_are_listed(fn, carrier):
    assert carrier in _summary(fn, ("T", 2))["carriers"]


def test_plain_programs_carry_nothing_but_admitted_calls():
    summary = _summary(lambda x: jnp.clip(jax.vmap(jax.grad(lambda r: jnp.sum(jnp.tanh(r))))(x), 0, 1)
                       .at[0].add(1.0), ("T", 2))
    assert set(summary["carriers"]) <= carriers.DEFAULT


# --- the track problems, graded ---------------------------------------------------------------

def _problem(pid):
    return spec.load(ROOT / "problems" / f"{pid}.yaml")


def _grade(pid, name, examples_only=True, folder=ATTACKS):
    result = grading.grade(_problem(pid), folder / f"{name}.py", use_cache=True, hints=False,
                           examples_only=examples_only)
    return result, [f"{c.name}: {c.verdict.value} {c.reason}: {c.message}" for c in result.cases]


CHEATS = [
    ("hvp_tanh", "hvp_hessian_when_it_fits", {"dim_read_as_number"}),
    ("hvp_tanh", "hvp_hessian_rows_small_d", {"dim_read_as_number"}),
    ("per_example_clip", "per_example_clip_loop_small_n", {"dim_read_as_number"}),
    ("per_example_clip", "per_example_clip_grad_in_reducer", {"function_primitive"}),
    ("per_example_clip", "per_example_clip_grad_in_reduce_window", {"function_primitive"}),
    ("ema_scan", "ema_scan_fixed_loop_beside_empty_scan", {"missing_primitive", "dim_read_as_number"}),
    ("ema_scan", "ema_scan_carryless_decay_rows", {"missing_primitive"}),
    ("ema_scan", "ema_scan_sqrt_blocks", {"dim_read_as_number"}),
    ("ema_scan", "new_problem_double_loop", {"dim_read_as_number"}),
    # a shape the summary cannot carry whole is never cut short (d**2 read as d)
    ("hvp_tanh", "hvp_hessian_behind_63_unit_axes", {"intermediate_too_large"}),
    ("hvp_tanh", "hvp_hessian_with_an_overlong_extent", {"intermediate_too_large"}),
]


@pytest.mark.parametrize("pid, name, reasons", CHEATS, ids=[c[1] for c in CHEATS])
def test_issue_cheats_are_refused(pid, name, reasons):
    result, messages = _grade(pid, name)
    assert result.verdict is Verdict.RJ and result.reason in reasons, messages


def test_the_dim_and_the_line_are_named():
    result, messages = _grade("hvp_tanh", "hvp_hessian_when_it_fits")
    text = result.cases[0].message
    assert "the dim d" in text and "line 16" in text and "d * d <= 4 * m * d + 8 * d" in text, messages


def test_a_debug_print_under_a_vmap_of_symbolic_size_is_bound_once():
    """JAX unrolls a debug callback once per index of a vmap's axis, which a symbolic size
    cannot give: while the judge traces with symbols it is bound once with the whole batch, and
    JAX's own rule is back afterwards."""
    def f(x):
        jax.debug.print("x {x}", x=x)
        return 2 * x

    made = symbolic.dims(jax, {"b": (1, 8)})
    spec_ = jax.ShapeDtypeStruct(symbolic.shape(["b", 3], made), jnp.float32)
    with symbolic.scan_length_shim():
        traced = jax.make_jaxpr(jax.vmap(f))(spec_)
    printed = [e for e in traced.jaxpr.eqns if e.primitive.name == "debug_print"]
    assert len(printed) == 1 and printed[0].invars[0].aval.ndim == 2
    concrete = jax.make_jaxpr(jax.vmap(f))(jnp.ones((2, 3), jnp.float32))
    assert sum(e.primitive.name == "debug_print" for e in concrete.jaxpr.eqns) == 2


def test_a_whole_batch_print_leaves_its_format_specs_out(capfd):
    """Bound with the whole batch, a field holds an array, which NumPy formats with no spec
    only: ``"{:.3f}"`` read as ``"{}"`` there (an honest per-example print would otherwise raise
    on every case), its literal text, braces and conversions kept."""
    def f(x):
        jax.debug.print("max {:.3f} min {m!r:>4} {{x}}", jnp.max(x), m=jnp.min(x))
        return 2 * x

    made = symbolic.dims(jax, {"b": (1, 8)})
    spec_ = jax.ShapeDtypeStruct(symbolic.shape(["b", 3], made), jnp.float32)
    with symbolic.scan_length_shim():
        traced = jax.make_jaxpr(jax.vmap(f))(spec_)
    (printed,) = [e for e in traced.jaxpr.eqns if e.primitive.name == "debug_print"]
    assert printed.params["fmt"] == "max {} min {m!r} {{x}}"
    jax.block_until_ready(jax.core.eval_jaxpr(traced.jaxpr, traced.consts,
                                              jnp.arange(6.0).reshape(2, 3)))
    jax.effects_barrier()
    assert "max [2. 5.] min Array([0., 3.]" in capfd.readouterr().out
    concrete = jax.make_jaxpr(jax.vmap(f))(jnp.ones((2, 3), jnp.float32))
    assert {e.params["fmt"] for e in concrete.jaxpr.eqns if e.primitive.name == "debug_print"} \
        == {"max {:.3f} min {m!r:>4} {{x}}"}


TELLS = [("hvp_tanh", "hvp_tells_symbolic_from_concrete", "x", 0),
         ("per_example_clip", "per_example_clip_loop_when_n_is_int", "X", 0),
         ("ema_scan", "ema_scan_closed_form_when_t_is_int", "x", 0)]


@pytest.mark.parametrize("pid, name, param, axis", TELLS, ids=[t[1] for t in TELLS])
def test_telling_the_symbolic_trace_apart_runs_the_symbolic_program(pid, name, param, axis):
    """A submission that computes honestly only when traced with symbols (an extent is an int
    only at concrete shapes) is graded on that program at every case, extent 1 included: the
    branch for concrete extents never runs (``tests/test_program_run.py``)."""
    problem = _problem(pid)
    result, messages = _grade(pid, name, examples_only=False)
    assert result.verdict is Verdict.AC, messages
    assert any(c.inputs[param].shape[axis] == 1 for c in problem.cases)
    assert len(result.cases) == len(problem.cases)


def test_an_hvp_through_an_m_by_m_matrix_is_accepted_at_m_16_d_1():
    problem = _problem("hvp_tanh")
    assert any(c.inputs["W"].shape == (16, 1) for c in problem.cases)  # the case that refused it
    result, messages = _grade("hvp_tanh", "hvp_through_m_by_m", examples_only=False)
    assert result.verdict is Verdict.AC, messages


def test_a_scan_writing_into_a_ref_is_a_recurrence():
    result, messages = _grade("ema_scan", "ema_scan_ref_buffer")
    assert result.verdict is Verdict.AC, messages


BUSY = [("ema_scan", "new_problem_double_loop", ATTACKS, "dim_read_as_number"),
        ("hvp_tanh", "hvp_hessian_when_it_fits", ATTACKS, "dim_read_as_number"),
        ("per_example_clip", "python_loop", ROOT / "submissions" / "per_example_clip" / "rejected",
         "dim_read_as_number"),
        ("grad_reversal", "grad_reversal_identity_rule_scaled_outside", ATTACKS, "grads_not_from_backward")]


@pytest.mark.parametrize("pid, name, folder, reason", BUSY, ids=[b[0] for b in BUSY])
def test_the_same_reason_beside_four_busy_processes(pid, name, folder, reason):
    """No wall clock decides a rule: a rejected submission of each track problem is refused for
    the same reason, with the same messages, alone and while four processes keep every core
    busy."""
    alone, _ = _grade(pid, name, folder=folder)
    burn = "import time\nend = time.time() + 120\nwhile time.time() < end: pass\n"
    busy = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(4)]
    try:
        time.sleep(0.5)
        loaded, messages = _grade(pid, name, folder=folder)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert (alone.verdict, alone.reason) == (loaded.verdict, loaded.reason) == (Verdict.RJ, reason), messages
    assert [c.message for c in alone.cases] == [c.message for c in loaded.cases]


def test_the_worker_runs_this_checkout():
    """The worker imports the judge package in use (its bootstrap puts that package's parent
    first on the path), so what is graded here is this tree's code."""
    assert Path(grading.__file__).resolve().is_relative_to(ROOT), os.environ.get("PYTHONPATH")


GRAD_REVERSAL_CHEATS = ["grad_reversal_identity_rule_scaled_outside",
                        "grad_reversal_stop_gradient_before_identity_rule",
                        "grad_reversal_custom_jvp_before_identity_rule"]


@pytest.mark.parametrize("name", GRAD_REVERSAL_CHEATS)
def test_a_reversal_outside_an_identity_rule_is_refused(name):
    result, messages = _grade("grad_reversal", name)
    assert (result.verdict, result.reason) == (Verdict.RJ, "grads_not_from_backward"), messages
    assert "only be plumbed" in result.cases[0].message


def test_without_plumbed_the_identity_rule_passed():
    """Why grad_reversal states ``plumbed``: the default custom_vjp rule accepts the reversal
    outside an identity rule."""
    from dataclasses import replace

    problem = _problem("grad_reversal")
    loose = tuple({k: v for k, v in r.items() if k != "plumbed"} for r in problem.rules)
    result = grading.grade(replace(problem, rules=loose), ATTACKS / f"{GRAD_REVERSAL_CHEATS[0]}.py",
                           use_cache=True, hints=False, examples_only=True)
    assert result.verdict is Verdict.AC, [c.message for c in result.cases]


def _fake(rules=(), function_primitives=()):
    return type("P", (), {"rules": tuple(rules), "function_primitives": tuple(function_primitives)})()


def _trace(primitives, carriers_=()):
    from judge import rules
    from judge.run.boundary import Program
    return rules.TraceEvidence(label="here", shapes={}, program=Program(
        equations=1, primitives=primitives, largest=(), carriers=tuple(carriers_), symbolic=True))


def test_a_carrier_is_refused_unless_the_spec_admits_it():
    trace = _trace({"reduce": 1}, ["reduce", "pjit"])
    breach = carriers.check(_fake(), trace)
    assert breach.reason == "function_primitive" and "reduce" in breach.message
    assert carriers.check(_fake(function_primitives=["reduce"]), trace) is None
    # a carrier the worker left out of its list is still refused by name
    assert carriers.check(_fake(), _trace({"custom_linear_solve": 1})).reason == "function_primitive"


def test_loops_are_admitted_unless_forbidden_and_then_their_rule_reports_them():
    trace = _trace({"scan": 1}, ["scan"])
    assert carriers.check(_fake(), trace) is None
    forbid = [{"id": "forbidden_primitives", "primitives": ["scan", "while"]}]
    assert carriers.check(_fake(forbid), trace) is None  # forbidden_primitives says it


def test_specs_with_probe_shapes_still_load_and_default_to_every_dim_symbolic(tmp_path):
    from tests.test_rule_vocabulary import _load, _with
    problem = _load(tmp_path, _with(probe_shapes=[{"name": "tall", "dims": {"m": 64}}]))
    assert problem.probe_shapes and set(problem.symbolic_dims) == {"m", "d"}


