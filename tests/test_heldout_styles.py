"""Submissions in styles the bundled ones did not cover, graded against the new problems' specs:
a while loop's counter converted before its step is still read, and so is one that starts at a
module-level jnp.int32(0); a scan's last estimate at one step, a one-hot indexed from
jnp.eye(k), the K % c steps written out after a loop of c steps to a trip (c up to 4, whatever
values of K are drawn), a fixed loop nested in a loop of K trips, an online-softmax attention
whose derivative stacks its running outputs; and the attacks beside each: a counter that is
data, the rest of trips of eight, a stack of products read whole, an einsum to (b, t, s, d); a
float32 product of an operand rebuilt from its bits through bools, a second forward pass in
integer products, and a closed form copied through a scan whose carry is multiplied by zero."""

import itertools

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from judge import rules
from judge.grade import grading
from judge.problem import spec
from judge.rules import no_unrolling
from judge.run.summary import Loop, Program
from judge.worker import program, symbolic
from tests.helpers import ROOT, grade_known

K = 5


def _loop(start, step, test=lambda i: i < K):
    """A while loop over a counter starting at ``start()`` (made while tracing, as a
    submission's is), a float carry multiplied by x at each trip."""
    def fn(x):
        return lax.while_loop(lambda c: test(c[0]), lambda c: (step(c[0]), c[1] * x), (start(), x))[1]
    return fn


@pytest.mark.parametrize("fn, length", [
    # a Python int counter plus a strongly typed one: the counter is converted, then stepped
    (_loop(lambda: 0, lambda i: i + jnp.int32(1)), "5"),
    (_loop(lambda: 0, lambda i: jnp.int32(1) + i), "5"),
    (_loop(lambda: K, lambda i: i - jnp.int32(1), lambda i: i > 0), "5"),
    # the sum converted back to the carry's type
    (_loop(lambda: jnp.int32(0), lambda i: (i + 1.0).astype(jnp.int32)), "5"),
    # what is converted must be the counter, and the step a whole literal
    (_loop(lambda: 0, lambda i: i.astype(jnp.float32).astype(jnp.int32) * 2 + jnp.int32(1)), "?"),
    (_loop(lambda: 0.0, lambda i: i + jnp.float32(0.5)), "?"),
], ids=["int32 step", "int32 step first", "int32 step down", "sum converted", "doubled", "by a half"])
def test_a_converted_counter_is_read(fn, length):
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)))["loops"]
    assert loop["length"] == length, loop


#: module-level constants, as a submission's: the traced program holds them as constants
ZERO, ONE, TWO, FIVE = jnp.int32(0), jnp.int32(1), jnp.int32(2), jnp.int32(K)
FIRST = jnp.arange(3, dtype=jnp.int32)  # an array: a counter read from it is not a whole constant


@pytest.mark.parametrize("fn, length", [
    (_loop(lambda: ZERO, lambda i: i + 1), "5"),
    (_loop(lambda: ZERO, lambda i: i + ONE), "5"),
    (_loop(lambda: ZERO, lambda i: ONE + i), "5"),
    (_loop(lambda: ZERO, lambda i: i + TWO), "3"),
    (_loop(lambda: 0, lambda i: i + 1, lambda i: i < FIVE), "5"),
    (_loop(lambda: FIVE, lambda i: i - ONE, lambda i: i > ZERO), "5"),
    (jax.jit(_loop(lambda: ZERO, lambda i: i + ONE)), "5"),
    (lambda x: lax.fori_loop(ZERO, FIVE, lambda i, c: c * x, x), "5"),
    (lambda x: lax.fori_loop(ONE, K, lambda i, c: c * x, x), "4"),
    # a constant array indexed, a step that is not whole: not read
    (_loop(lambda: FIRST[0], lambda i: i + 1), "?"),
    (_loop(lambda: jnp.float32(0), lambda i: i + jnp.float32(0.5)), "?"),
    (_loop(lambda: ZERO, lambda i: i * TWO + ONE), "?"),
], ids=["start", "start and step", "step first", "by two", "bound", "down", "in a jit", "fori bounds",
        "fori from one", "indexed", "by a half", "doubled"])
def test_a_counter_at_a_constant_is_read(fn, length):
    """A counter that starts at, steps by or is compared with a module-level jnp.int32 is read
    as one that a Python int does."""
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)))["loops"]
    assert loop["length"] == length, loop


def _data_loop(start, step, bound):
    """A while loop whose start, step or bound is computed from the input x (data)."""
    def fn(x):
        n = (x[0] * 0).astype(jnp.int32)
        return lax.while_loop(lambda c: c[0] < bound(n), lambda c: (step(c[0], n), c[1] * x),
                              (start(n), x))[1]
    return fn


@pytest.mark.parametrize("fn", [
    _data_loop(lambda n: ZERO + n, lambda i, n: i + ONE, lambda n: K),
    _data_loop(lambda n: ZERO, lambda i, n: i + ONE + n, lambda n: K),
    _data_loop(lambda n: ZERO, lambda i, n: i + ONE, lambda n: FIVE + n),
    _data_loop(lambda n: jnp.where(n > 0, ZERO, ONE), lambda i, n: i + ONE, lambda n: K),
], ids=["start from the data", "step from the data", "bound from the data", "start selected by the data"])
def test_a_counter_beside_a_constant_that_is_data_is_not_read(fn):
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)))["loops"]
    assert loop["length"] == "?", loop


@pytest.fixture(scope="module")
def problems():
    return {pid: spec.load(ROOT / "problems" / f"{pid}.yaml")
            for pid in ("spectral_norm", "mixed_precision_step", "loss_and_grads", "batched_attention",
                        "ema_scan")}


@pytest.mark.parametrize("pid, name", [
    ("spectral_norm", "scan_arange_ys_last"),               # ys[-1] is a squeeze alone at K = 1
    ("spectral_norm", "while_counter_stepped_by_int32"),
    ("loss_and_grads", "eye_rows_one_hot_by_hand"),         # a (k, k) identity where n, d are 1
    ("spectral_norm", "two_steps_python_remainder"),        # K and K + 1 differ by one step
    ("spectral_norm", "two_steps_in_a_nested_loop"),        # 2 trips in each of K // 2
    ("spectral_norm", "while_counter_module_constants"),    # starts at a constant jnp.int32(0)
    ("batched_attention", "online_softmax_scan_keys"),      # its derivative stacks (s, b, t, e)
    ("batched_attention", "online_softmax_jit"),            # ... and hands it across jits
    ("spectral_norm", "three_steps_python_remainder"),      # K and K + 1 may differ by two steps
    ("spectral_norm", "four_steps_rest_only_v_stopped"),    # ... three, each with its derivative
    ("loss_and_grads", "by_hand_comparison_one_hot"),       # a one-hot of labels is no data
    ("loss_and_grads", "eye_rows_one_hot_einsum"),          # ... nor rows of jnp.eye(k) by them
    ("mixed_precision_step", "vjp_ravel_flat_vector"),      # one flat vector, isfinite(g).all()
])
def test_honest_styles_are_accepted(problems, pid, name):
    result = grade_known(problems[pid], "accepted", name)
    assert result.verdict.value == "AC", result.message




@pytest.mark.parametrize("pid, name, reason", [
    # a float32 backward pass whose products take one operand rebuilt from its bits
    ("mixed_precision_step", "float32_backward_operands_rebuilt_from_bits", "wrong_precision"),
    ("mixed_precision_step", "float32_backward_operands_rebuilt_in_a_loop", "wrong_precision"),
    # a second forward pass in int32 products of fixed-point halves of x and w
    ("loss_and_grads", "second_pass_integer_products", "repeated_computation"),
])
def test_products_hidden_by_type_or_through_bools_are_counted(problems, pid, name, reason):
    result = grade_known(problems[pid], "rejected", name)
    assert (result.verdict.value, result.reason) == ("RJ", reason), result.message


@pytest.mark.xfail(strict=True, reason="a scan whose step is 0 * m + row has the shape of the honest "
                   "step at decay 0: the closed form's rows pass through it as a recurrence")
def test_a_closed_form_copied_through_a_scan_of_zero_carry_is_refused(problems):
    result = grade_known(problems["ema_scan"], "rejected", "doubling_rolls_then_scan_of_zero_carry")
    assert result.verdict.value == "RJ", result.message


def test_finite_read_from_the_loss_alone_is_a_wrong_answer(problems):
    """Two hidden cases tell a finite scaled loss from a finite gradient, both ways round."""
    path = ROOT / "submissions" / "mixed_precision_step" / "wrong_answer" / "finite_from_loss_only.py"
    result = grading.grade(problems["mixed_precision_step"], path, examples_only=False, hints=False,
                           source_gate=True)
    assert result.verdict.value == "WA", result.message


@pytest.mark.parametrize("name", ["fixed_loop_inside_k_loop", "scan_k_trips_body_ignores_carry"])
def test_a_fixed_loop_nested_in_a_loop_of_k_trips_is_refused(problems, name):
    path = ROOT / "submissions" / "spectral_norm" / "rejected" / f"{name}.py"
    result = grading.grade(problems["spectral_norm"], path, examples_only=True, hints=False,
                           source_gate=False)
    assert result.verdict.value == "RJ", result.message


def _stacks(fn, *shapes, outputs=None):
    """``{shape: rows}`` of the values of ``fn``'s summary, traced with symbolic dims, whose
    first extent is ``s`` (what a scan over the keys stacks); ``outputs``: how many of its
    outputs are returned (the rest, derivatives), as the worker tells the summary."""
    dims = symbolic.dims(jax, {"s": [1, 16], "t": [1, 16], "e": [1, 16]})
    closed = jax.make_jaxpr(fn)(*[jax.ShapeDtypeStruct(symbolic.shape(shape, dims), jnp.float32)
                                  for shape in shapes])
    found = program.summarize(closed, symbolic=True, outputs=outputs)["shapes"]
    return {tuple(v["shape"]): v.get("rows", False) for v in found if v["shape"][:1] == ["s"]}


def _running(q, k, v):
    """An online softmax over the keys of one example (no mask): its running output is a
    (t, e) carry."""
    def step(carry, key):
        m, l, o = carry
        s = q @ key[0]
        m_new = jnp.maximum(m, s)
        p, corr = jnp.exp(s - m_new), jnp.exp(m - m_new)
        return (m_new, l * corr + p, o * corr[:, None] + p[:, None] * key[1][None, :]), None
    t, e = q.shape[0], v.shape[-1]
    init = (jnp.full((t,), -1e9), jnp.zeros((t,)), jnp.zeros((t, e)))
    (_, l, o), _ = lax.scan(step, init, (k, v))
    return o / l[:, None]


def _differentiated(fn):
    def both(q, k, v):
        out, back = jax.vjp(fn, q, k, v)
        return out, back(out)
    return both


def _products(q, k, v):
    """A scan that stacks each key's (t, d) products with the queries."""
    return lax.scan(lambda c, kj: (c, q * kj[None, :]), 0.0, k)[1]


@pytest.mark.parametrize("fn, stacks", [
    # the backward scan reads the stack of running outputs one row a step
    (_differentiated(_running), {("s", "t", "e"): True}),
    (_running, {("s", "t", "e"): None}),  # no derivative: nothing stacked
    # read whole: summed, transposed, returned, or a scan's constant
    (lambda q, k, v: _products(q, k, v).sum(), {("s", "t", "3"): False}),
    (lambda q, k, v: jnp.swapaxes(_products(q, k, v), 0, 1), {("s", "t", "3"): False}),
    (_products, {("s", "t", "3"): False}),
    (lambda q, k, v: lax.scan(lambda c, kj: (c + jnp.sum(_products(q, k, v)) * kj, None), q[0], k)[0],
     {("s", "t", "3"): False}),
    # read by a scan one row a step
    (lambda q, k, v: lax.scan(lambda c, row: (c + row, None), q, _products(q, k, v))[0],
     {("s", "t", "3"): True}),
    # across a jit's boundary: the same value on both sides
    (jax.jit(_differentiated(_running)), {("s", "t", "e"): True}),
    (_differentiated(jax.jit(_running)), {("s", "t", "e"): True}),
    (lambda q, k, v: jax.jit(jnp.sum)(_products(q, k, v)), {("s", "t", "3"): False}),
    (lambda q, k, v: jax.jit(_products)(q, k, v).sum(), {("s", "t", "3"): False}),
    (lambda q, k, v: lax.scan(lambda c, row: (c + row, None), q, jax.jit(_products)(q, k, v))[0],
     {("s", "t", "3"): True}),
    # one jitted function handed a stack and a broadcast product of the same shape
    (lambda q, k, v: [lax.scan(lambda c, row: (c + row, None), q, jax.jit(lambda x: x)(a))[0]
                      for a in (_products(q, k, v), jnp.swapaxes(q[:, None, :] * k[None, :, :], 0, 1))],
     {("s", "t", "3"): False}),
], ids=["derivative", "forward", "summed", "transposed", "returned", "a constant", "scanned",
        "derivative in a jit", "jit differentiated", "summed in a jit", "returned by a jit and summed",
        "returned by a jit and scanned", "a jit shared with a broadcast"])
def test_a_stack_read_one_row_a_step_is_marked(fn, stacks):
    found = _stacks(fn, ("t", 3), ("s", 3), ("s", "e"))
    assert {k: found.get(k) for k in stacks} == stacks, found


def _read_back(q, k, v):
    """A stack of products read back one row a step by a second scan, for the returned output."""
    return lax.scan(lambda c, row: (c + row, None), q, _products(q, k, v))[0]


@pytest.mark.parametrize("fn, outputs, rows", [
    # the backward scan reads autodiff's stack for the derivative only: by its row
    (_differentiated(_running), 1, True),
    (jax.jit(_differentiated(_running)), 1, True),
    (_differentiated(jax.jit(_running)), 1, True),
    # a stack built and read back by a second scan for the output returned: whole
    (_read_back, 1, False),
    (jax.jit(_read_back), 1, False),
    (_differentiated(_read_back), 1, False),
    (lambda q, k, v: lax.scan(lambda c, row: (c + row, None), q, jax.jit(_products)(q, k, v))[0], 1, False),
], ids=["derivative", "derivative in a jit", "jit differentiated", "read back", "read back in a jit",
        "read back, differentiated", "read back from a jit"])
def test_a_stack_the_returned_output_needs_is_weighed_whole(fn, outputs, rows):
    found = _stacks(fn, ("t", 3), ("s", 3), ("s", "e"), outputs=outputs)
    stacked = [v for k, v in found.items() if k in {("s", "t", "e"), ("s", "t", "3")}]
    assert stacked and all(bool(v) is rows for v in stacked), found


@pytest.mark.parametrize("name", ["stacked_products_summed", "einsum_products_4d", "scan_step_broadcasts",
                                  "broadcast_scores"])
def test_a_large_value_built_in_or_beside_a_scan_is_refused(problems, name):
    """A stack of products summed as a whole, an einsum to (b, t, s, d), a scan whose step
    broadcasts: each holds a value as large as b*t*s*d."""
    result = grade_known(problems["batched_attention"], "rejected", name)
    assert result.verdict.value == "RJ", result.message
    assert result.reason == "intermediate_too_large", result.message


#: a chunked loop as the measured spectral_norm submissions make it: a step written out costs
#: 61 equations, one in a trip about 44, a trip c of them and its counter's step
WRITTEN, IN_A_TRIP, BASE = 61, 44, 150


def _chunked(c: int, K: int):
    """The summary of K // c trips of c steps with the K % c rest written out after the loop."""
    loop = Loop(primitive="while", length=str(K // c), recurrent=True, work=IN_A_TRIP * c + 1)
    return rules.TraceEvidence(label=f"K = {K}", shapes={}, abstract=True, values={"K": K}, program=Program(
        equations=BASE + WRITTEN * (K % c), primitives={"while": 1}, largest=(), live={"while": 1},
        loops=(loop,)))


@pytest.mark.parametrize("c", [2, 3, 4])
def test_the_rest_of_a_small_chunk_is_accepted_whatever_values_are_drawn(c):
    """The programs at any two or three values of K (the rule's own, a case's and the drawn
    ones) agree to within what K % c steps written out make."""
    rule = {"id": "no_unrolling", "parameter": "K"}
    values = range(2, 65)
    for pair in itertools.combinations(values, 2):
        assert no_unrolling.check_traces(rule, [_chunked(c, K) for K in pair], None) is None, pair
    for triple in [(3, 7, 64), (2, 3, 5), (4, 6, 7), (5, 6, 7), (9, 10, 11), (62, 63, 64)]:
        assert no_unrolling.check_traces(rule, [_chunked(c, K) for K in triple], None) is None, triple


#: the same, differentiated through: a forward loop and autodiff's backward loop of as many
#: trips, and a step written out with its backward equations (as measured on
#: ``four_steps_rest_only_v_stopped``)
WRITTEN_BOTH, FORWARD, BACKWARD, BASE_BOTH = 48, 31, 16, 214


def _chunked_both(c: int, K: int, beside: str | None = None):
    """K // c trips of c steps, a backward loop of as many trips beside them (of ``beside``
    trips instead, where given), the K % c rest written out with its derivative."""
    loops = (Loop(primitive="scan", length=str(K // c), recurrent=True, work=FORWARD * c),
             Loop(primitive="scan", length=beside or str(K // c), recurrent=True, work=BACKWARD * c))
    return rules.TraceEvidence(label=f"K = {K}", shapes={}, abstract=True, values={"K": K}, program=Program(
        equations=BASE_BOTH + WRITTEN_BOTH * (K % c), primitives={"scan": 2}, largest=(),
        live={"scan": 2}, loops=loops))


@pytest.mark.parametrize("c", [2, 3, 4])
def test_the_rest_differentiated_through_is_accepted(c):
    """A step written out costs its backward equations too, and so does a trip of the backward
    loop beside the loop of the steps: the allowance counts both loops' trips."""
    rule = {"id": "no_unrolling", "parameter": "K"}
    for pair in itertools.combinations(range(2, 65), 2):
        assert no_unrolling.check_traces(rule, [_chunked_both(c, K) for K in pair], None) is None, pair
    assert no_unrolling.check_traces(rule, [_chunked_both(c, K) for K in (3, 7, 64)], None) is None


def test_a_loop_of_another_count_beside_does_not_widen_the_allowance():
    """Only a loop of the same count as the loop of the steps counts with it: a light loop of
    a fixed count beside them is no trip of the steps."""
    rule = {"id": "no_unrolling", "parameter": "K"}
    breach = no_unrolling.check_traces(rule, [_chunked_both(4, K, beside="1") for K in (3, 7, 64)], None)
    assert breach is not None and "grows with K" in breach.message


@pytest.mark.parametrize("c", [5, 6, 7, 8, 16])
def test_the_rest_of_a_larger_chunk_is_refused_at_the_rules_own_values(c):
    """Trips of five steps or more leave too many steps written out: refused at the rule's own
    values of K (3, 7 and the top of the range), whatever a grade draws beside them."""
    rule = {"id": "no_unrolling", "parameter": "K"}
    breach = no_unrolling.check_traces(rule, [_chunked(c, K) for K in (3, 7, 64)], None)
    assert breach is not None and "grows with K" in breach.message
