"""Attacks on the rules read from the traced program (max_intermediate_size, no_unrolling,
required_primitives, forbidden_primitives): cheats that want AC without doing the work, and
honest code that must not be refused.

The submissions are in ``tests/adversarial/structural/``; each docstring says what it tries and
the verdict a correct judge gives. They are graded on the small problems of
``test_rule_vocabulary`` (built in a temporary folder, a variant or two added here) and, where
the package is in the checkout, on the real problems. Attacks aimed at the rules are graded with
the source gate off, so that the rules are what must refuse them; an attack the gate already
stops is graded with it on as well. A hole still open is an expected failure (strict), so the
test flips when it is closed.
"""

import copy
import importlib.util
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import yaml

from judge.errors import SpecError
from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.worker import program
from tests.test_rule_vocabulary import _arr, _case, _clip, _specs

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = Path(__file__).resolve().parent / "adversarial" / "structural"


def _module(name):
    found = importlib.util.spec_from_file_location(f"structural_{name}", ATTACKS / f"{name}.py")
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def _largest(summary) -> int:
    return max(int(np.prod(v["shape"])) for v in summary["largest"])


# --- the program summary (worker side), without grading -------------------------------------

def test_summary_sees_a_hessian_spread_over_more_than_64_dimensions():
    hvp = _module("hvp_high_rank_hessian").hvp
    m, d = 2, 1024
    specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in ((m, d), (d,), (d,))]
    assert _largest(program.summarize(jax.make_jaxpr(hvp)(*specs))) >= d * d


def test_the_high_rank_hessian_is_the_right_answer():
    """So that only the rule can refuse it: the values are the HVP's."""
    hvp = _module("hvp_high_rank_hessian").hvp
    rng = np.random.default_rng(1)
    W, x, v = (rng.normal(size=s).astype(np.float32) for s in ((3, 5), (5,), (5,)))
    want = jax.jvp(jax.grad(lambda y: jnp.sum(jnp.tanh(W @ y))), (x,), (v,))[1]
    got = hvp(jnp.asarray(W), jnp.asarray(x), jnp.asarray(v))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-5)


def test_summary_does_not_pass_code_it_cannot_read():
    """The summary shows a call_exported equation, and the judge refuses a program the rules
    must read that calls one (``judge.rules.opaque``)."""
    from judge import rules
    from judge.run.boundary import Program

    hvp = _module("hvp_exported_hessian").hvp
    m, d = 2, 512
    specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in ((m, d), (d,), (d,))]
    summary = program.summarize(jax.make_jaxpr(hvp)(*specs))
    assert "call_exported" in summary["primitives"]
    fake = type("P", (), {"rules": ({"id": "max_intermediate_size", "bound": "1"},)})()
    trace = rules.TraceEvidence(label="here", shapes={}, program=Program(
        equations=summary["equations"], primitives=summary["primitives"], largest=()))
    breach = rules.opaque(fake, trace)
    assert breach and breach.reason == "opaque_computation" and "call_exported" in breach.message


def test_a_scan_whose_result_leaves_a_jit_unused_is_not_live():
    def f(x):
        both = jax.jit(lambda y: (jnp.cumsum(y) * 0.25, jax.lax.scan(lambda c, v: (c + v, c * v), 0.0, y)[1]))
        return both(x)[0]

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(5)))
    assert summary["primitives"]["scan"] == 1
    assert "scan" not in summary["live"]


def test_a_scan_that_only_prints_is_not_live():
    """An effect feeds no output: a scan whose result is thrown away is not live because its
    step prints (``submissions/ema_scan/rejected/doubling_beside_printing_scan.py``)."""
    def f(x):
        def step(c, row):
            jax.debug.print("")
            return c, None
        jax.lax.scan(step, 0.0, x)
        return x * 2.0

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(5)))
    assert summary["primitives"]["scan"] == 1
    assert "scan" not in summary["live"]


def _scanned(y):
    return jax.lax.scan(lambda c, v: (c + v, c * v), 0.0, y)[1]


@pytest.mark.parametrize("combine", [
    lambda kept, ignored: jax.jit(lambda a, b: a)(kept, ignored),
    lambda kept, ignored: jax.lax.optimization_barrier((kept, ignored))[0],
    lambda kept, ignored: jax.lax.cond(kept[0] > 0, lambda a, b: a, lambda a, b: -a, kept, ignored),
    lambda kept, ignored: jax.checkpoint(lambda a, b: (a, b))(kept, ignored)[0],
    lambda kept, ignored: jax.lax.composite(lambda a, b: a, name="ignores.it")(kept, ignored),
], ids=["jit_ignores_it", "optimization_barrier", "cond_ignores_it", "checkpoint_other_output",
        "composite_ignores_it"])
def test_a_scan_handed_to_a_call_that_ignores_it_is_not_live(combine):
    """A scan's result passed into a call, cond or barrier that does not use it for the output
    computes nothing (``submissions/ema_scan/rejected/doubling_beside_scan_through_*.py``)."""
    summary = program.summarize(jax.make_jaxpr(lambda x: combine(x * 2.0, _scanned(x)))(jnp.ones(5)))
    assert summary["primitives"]["scan"] == 1
    assert "scan" not in summary["live"]


def test_a_scan_carried_through_a_while_loop_it_does_not_feed_is_not_live():
    def f(x):
        body = lambda c: (c[0] * 1.5, c[1] + 1.0, c[2] + 1)  # noqa: E731
        return jax.lax.while_loop(lambda c: c[2] < 1, body, (x * 2.0, _scanned(x), 0))[0]

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(5)))
    assert "scan" not in summary["live"]


def test_a_scan_carried_through_another_scan_it_does_not_feed_is_not_live():
    def f(x):
        step = lambda c, v: ((c[0] * 1.5 + v, c[1] + v), c[0])  # noqa: E731
        return jax.lax.scan(step, (x * 2.0, _scanned(x)), jnp.ones(3))[1]

    summary = program.summarize(jax.make_jaxpr(f)(jnp.ones(5)))
    assert summary["live"]["scan"] == 1  # the outer scan only


@pytest.mark.parametrize("loop, scans", [
    # the carry it is in feeds, a step later, the carry that is returned
    (lambda kept, scanned: jax.lax.while_loop(
        lambda c: c[2] < 2, lambda c: (c[0] + c[1], c[1] * 1.5, c[2] + 1), (kept, scanned, 0))[0], 1),
    # the loop's condition reads it: how many steps run depends on it
    (lambda kept, scanned: jax.lax.while_loop(
        lambda c: c[1][0] < 9.0, lambda c: (c[0] * 1.5, c[1] + 1.0), (kept, scanned))[0], 1),
    # a scanned output computed from it (the outer scan is live too)
    (lambda kept, scanned: jax.lax.scan(
        lambda c, v: ((c[0] * 1.5, c[1] + v), c[1]), (kept, scanned), jnp.ones(3))[1], 2),
], ids=["feeds_a_returned_carry", "read_by_the_condition", "feeds_a_scanned_output"])
def test_a_scan_carried_through_a_loop_that_needs_it_is_live(loop, scans):
    summary = program.summarize(jax.make_jaxpr(lambda x: loop(x * 2.0, _scanned(x)))(jnp.ones(5)))
    assert summary["live"]["scan"] == scans


@pytest.mark.parametrize("combine", [
    lambda kept, used: jax.jit(lambda a, b: a + b)(kept, used),
    lambda kept, used: jax.lax.optimization_barrier((kept, used))[1],
    lambda kept, used: jax.lax.cond(kept[0] > 0, lambda a, b: a, lambda a, b: b, kept, used),
    lambda kept, used: jax.checkpoint(lambda a, b: (a, b))(kept, used)[1],
], ids=["jit_uses_it", "optimization_barrier", "one_branch_uses_it", "checkpoint"])
def test_a_scan_a_call_uses_for_the_output_is_live(combine):
    summary = program.summarize(jax.make_jaxpr(lambda x: combine(x * 2.0, _scanned(x)))(jnp.ones(5)))
    assert summary["live"]["scan"] == 1


@pytest.mark.parametrize("fn", [
    lambda w, X: jnp.squeeze(X @ w[:, None])[..., None] * X,
    lambda w, X: jnp.zeros_like(X[0]) + w,
    lambda w, X: jnp.median(X, axis=0) * w,
], ids=["squeeze", "first_row", "median"])
def test_honest_jnp_code_has_another_program_at_n_1_only(fn):
    """What makes the n = 1 comparison below unfair: ordinary jnp functions emit one equation
    fewer on an axis of extent 1, and only there; so a case of extent 1 is not compared."""
    def count(n):
        specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in ((3,), (n, 3))]
        return program.summarize(jax.make_jaxpr(fn)(*specs))["equations"]

    assert count(2) == count(3) == count(7) == count(9)
    assert count(1) != count(5)


# --- graded on the small problems ------------------------------------------------------------

def _variants():
    found = _specs()
    # clip_one: clip_mini with a hidden case of a single example
    one = copy.deepcopy(found["clip_mini"])
    one["id"] = "clip_one"
    rng = np.random.default_rng(7)
    w, X = rng.normal(size=3), rng.normal(size=(1, 3))
    one["hidden"] = one["hidden"] + [_case("single", {"w": _arr(w), "X": _arr(X)},
                                           _clip(np.float32(w), np.float32(X)))]
    found["clip_one"] = one
    # hvp_form: hvp_mini with a rule on the program's form, as the fix for the spec
    form = copy.deepcopy(found["hvp_mini"])
    form["id"] = "hvp_form"
    form["rules"] = form["rules"] + [{"id": "forbidden_primitives", "primitives": ["while", "scan"]}]
    found["hvp_form"] = form
    return found


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    root = tmp_path_factory.mktemp("attacks")
    (root / "problems").mkdir()
    (root / "reference").mkdir()
    for pid, data in _variants().items():
        (root / "problems" / f"{pid}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return root


def _grade(problem, name, gate):
    result = grading.grade(problem, ATTACKS / f"{name}.py", use_cache=False, hints=False, source_gate=gate)
    return result, [f"{c.name}: {c.verdict.value} {c.reason}: {c.message}" for c in result.cases]


def _small(track, pid):
    return spec.load(track / "problems" / f"{pid}.yaml")



SMALL = [
    # (problem, submission, gate, verdict, reasons or None, open hole: why)
    ("hvp_mini", "hvp_high_rank_hessian", True, Verdict.RJ, {"intermediate_too_large"}, None),
    ("hvp_mini", "hvp_exported_hessian", True, Verdict.RJ, {"forbidden_construct"}, None),
    ("hvp_mini", "hvp_exported_hessian", False, Verdict.RJ, {"opaque_computation"}, None),
    ("hvp_form", "hvp_hessian_rows_in_scan", False, Verdict.RJ, {"forbidden_primitive"}, None),
    # traced with n as a symbol, a loop padded to a fixed count must still read n (min(i, n - 1))
    ("clip_mini", "clip_padded_loop", True, Verdict.RJ, {"dim_read_as_number"}, None),
    ("clip_mini", "clip_loop_remembers_cases", True, Verdict.RJ, {"dim_read_as_number"}, None),
    ("clip_one", "clip_honest_squeeze", True, Verdict.AC, None, None),
    # the convolution's output is sliced to T, which it reads as a number
    ("ema_mini", "ema_scan_beside_convolution", True, Verdict.RJ, {"dim_read_as_number"}, None),
]


def _param(entry):
    pid, name, gate, *_ , why = entry
    marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
    return pytest.param(*entry[:5], id=f"{pid}-{name}-gate_{'on' if gate else 'off'}", marks=marks)


@pytest.mark.slow
@pytest.mark.parametrize("pid, name, gate, verdict, reasons", [_param(e) for e in SMALL])
def test_small_problems(track, pid, name, gate, verdict, reasons):
    result, messages = _grade(_small(track, pid), name, gate)
    assert result.verdict is verdict, messages
    if reasons:
        assert result.reason in reasons, messages


@pytest.mark.slow
def test_the_row_by_row_hessian_passes_a_size_bound_alone(track):
    """Why hvp_form adds forbidden_primitives: under a size bound alone the d-gradient Hessian
    is AC (the statement's "never build the Hessian" holds, the work is d times the HVP's)."""
    result, messages = _grade(_small(track, "hvp_mini"), "hvp_hessian_rows_in_scan", False)
    assert result.verdict is Verdict.AC, messages


# --- graded on the real problems, where the package is in the checkout -------------------------

def _real(pid):
    path = ROOT / "problems" / f"{pid}.yaml"
    if not path.exists() or not (ROOT / "reference" / f"{pid}.py").exists():
        pytest.skip(f"{pid} is not in this checkout")
    try:
        return spec.load(path)
    except SpecError as exc:  # a package being written (outputs not filled yet)
        pytest.skip(f"{pid} does not load: {exc}")


REAL = [
    ("ema_scan", "../../../reference/ema_scan", True, Verdict.AC, None, None),
    ("hvp_tanh", "hvp_hessian_rows_in_scan", False, Verdict.RJ, {"forbidden_primitive"}, None),
    ("per_example_clip", "per_example_clip_padded_loop", True, Verdict.RJ, {"dim_read_as_number"}, None),
    ("per_example_clip", "per_example_clip_loop_remembers_cases", True, Verdict.RJ, {"dim_read_as_number"}, None),
    # here the squeeze's missing equation is made up by a broadcast: the same count at n = 1
    ("per_example_clip", "per_example_clip_honest_squeeze", True, Verdict.AC, None, None),
    # ema_scan forbids the closed forms' primitives by name (convolution, FFT, cumsum, ...)
    ("ema_scan", "ema_scan_beside_convolution_2d", True, Verdict.RJ, {"forbidden_primitive", "dim_read_as_number"}, None),
    ("ema_scan", "ema_scan_beside_tridiagonal_solve", True, Verdict.RJ, {"forbidden_primitive", "missing_primitive"}, None),
    # a closed form that needs no forbidden primitive (doubling steps), beside a scan in a branch
    # that is never taken: the doubling steps read T as a number
    ("ema_scan", "ema_scan_beside_branch_never_taken", True, Verdict.RJ, None, None),
    # the same doubling steps run as a scan over the 12 levels: the recurrence rule asks for a
    # scan over T's steps (and the levels read T as a number)
    ("ema_scan", "ema_scan_doubling_levels_in_scan", True, Verdict.RJ, {"missing_primitive", "dim_read_as_number"}, None),
    # honest when traced with symbols, a cheat when its dims are numbers (isinstance, int()):
    # every case runs the program traced with symbols, so the cheat never runs
    ("hvp_tanh", "hvp_detect_fit_hessian_padded", True, Verdict.AC, None, None),
    ("hvp_tanh", "hvp_try_int_hessian", True, Verdict.AC, None, None),
    ("per_example_clip", "clip_detect_head_loop", True, Verdict.AC, None, None),
    ("per_example_clip", "clip_detect_grad_in_reducer", True, Verdict.AC, None, None),
    ("ema_scan", "ema_detect_fit_no_scan_padded", True, Verdict.AC, None, None),
    # known holes (SECURITY.md, "What stays best effort")
    # padding the examples to a fixed 64 rows makes every shape concrete (a fixed loop of 8
    # batched chunks then traces): the 64-row buffer breaks the size bound at small n
    ("per_example_clip", "../../../submissions/per_example_clip/rejected/pad_to_64_chunk_loop", True,
     Verdict.RJ, {"intermediate_too_large"}, None),
    ("ema_scan", "ema_dummy_recurrence_with_carryless_rows", True, Verdict.RJ, None,
     "a dummy carry as wide as a row (c + 0 * row) reaches every element of the output, each "
     "through an element of its own, as NaN flows: the reach is structural; the rows are closed "
     "forms"),
    # doubling steps beside a scan whose final carry (one element per column) enters every row
    # of the output times 0: it reaches one row's worth of the output, not the whole
    ("ema_scan", "ema_doubling_roll_with_fake_recurrence", True, Verdict.RJ, {"missing_primitive"}, None),
]


@pytest.mark.slow
@pytest.mark.parametrize("pid, name, gate, verdict, reasons", [_param(e) for e in REAL])
def test_real_problems(pid, name, gate, verdict, reasons):
    result, messages = _grade(_real(pid), name, gate)
    assert result.verdict is verdict, messages
    if reasons:
        assert result.reason in reasons, messages


def test_a_summary_that_leaves_primitives_out_is_refused(monkeypatch):
    """A program of more distinct primitives than a summary lists (custom primitives, say,
    with a forbidden one among the rarest) is refused: the rules cannot see all of it."""
    from judge import rules
    from judge.run.boundary import Program
    from judge.worker import protocol

    monkeypatch.setattr(protocol, "MAX_PRIMITIVE_NAMES", 2)
    summary = program.summarize(jax.make_jaxpr(lambda x: jnp.sin(x) * jnp.cos(x) + x)(jnp.ones(3)))
    assert len(summary["primitives"]) == 2 and summary["omitted"] >= 2
    fake = type("P", (), {"rules": ({"id": "forbidden_primitives", "primitives": ["while"]},)})()
    trace = rules.TraceEvidence(label="here", shapes={}, program=Program(
        equations=summary["equations"], primitives=summary["primitives"], largest=(),
        omitted=summary["omitted"]))
    breach = rules.check_case(fake, trace)
    assert breach and breach.reason == "opaque_computation"
