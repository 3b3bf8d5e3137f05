"""The reach of a recurrence, element by element (``judge.worker.reach``), on programs traced
with T as a symbol: how many elements of the output a loop's recurrent carry reaches, each by an
element of its own."""

import jax
import jax.numpy as jnp
import pytest

from judge.worker import program, symbolic

SYMBOLS = {"T": [1, 64]}


def _reach(fn, d=4):
    made = symbolic.dims(jax, SYMBOLS)
    closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((made["T"], d), jnp.float32))
    loops = program.summarize(closed, symbolic=True, symbols=SYMBOLS, outputs=1)["loops"]
    return [(lp["reach"]["reached"], lp["reach"]["outputs"]) if lp.get("reach") else None for lp in loops]


def _step(c, row, decay=0.9):
    c = decay * c + (1 - decay) * row
    return c, c


def _closed_form(x):
    return jnp.cumsum(x, axis=0) * 0.1  # any values: only which elements flow where is measured


@pytest.mark.parametrize("fn", [
    lambda x: jax.lax.scan(_step, jnp.zeros_like(x[0]), x)[1],
    # a decay of 0: the carry is multiplied by zero, yet the step reads it
    lambda x: jax.lax.scan(lambda c, r: _step(c, r, 0.0), jnp.zeros_like(x[0]), x)[1],
    lambda x: jax.vmap(lambda col: jax.lax.scan(_step, 0.0, col)[1], in_axes=1, out_axes=1)(x),
    lambda x: jax.lax.scan(_step, jnp.zeros_like(x[0]), x.T.T)[1].T.T,
], ids=["scan", "decay_zero", "vmap_over_columns", "transposed"])
def test_an_honest_recurrence_reaches_every_element(fn):
    assert _reach(fn) == [(128, 128)]


def _guarded(guard):
    """An EMA by a while over T whose test joins ``t < T`` with ``guard(m, out)``."""
    def fn(x):
        def body(s):
            t, m, out = s
            m = _step(m, x[t])[0]
            return t + 1, m, out.at[t].set(m)
        cond = lambda s: jnp.logical_and(s[0] < x.shape[0], guard(s[1], s[2]))  # noqa: E731
        return jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))[2]
    return fn


@pytest.mark.parametrize("guard, reached", [
    (lambda m, out: jnp.all(jnp.isfinite(m)), 128),
    # a test that stops it after the first step: it reaches the first row only
    (lambda m, out: jnp.all(out == 0), 4),
], ids=["never_stops", "stops_after_one_step"])
def test_a_while_that_may_stop_early_reaches_the_steps_it_runs(guard, reached):
    assert _reach(_guarded(guard)) == [(reached, 128)]


@pytest.mark.parametrize("fn, reached", [
    (lambda x: _closed_form(x).at[:, :1].set(jax.lax.scan(_step, jnp.zeros((1,)), x[:, :1])[1]), 32),
    (lambda x: _closed_form(x) + 0.5 * jax.lax.scan(_step, jnp.zeros((1,)), x[:, :1])[1], 32),
    (lambda x: _closed_form(x) + 0.5 * jax.lax.scan(_step, jnp.zeros_like(x[0]), x)[0], 4),
    (lambda x: _closed_form(x).at[:, :1].set(jax.lax.scan(_step, jnp.zeros_like(x[0]), x)[1][:, :1]), 32),
], ids=["one_column_replacing", "one_column_broadcast", "final_carry_broadcast", "one_column_used"])
def test_a_recurrence_beside_a_closed_form_reaches_part_of_the_output(fn, reached):
    assert _reach(fn) == [(reached, 128)]


def test_a_print_in_the_step_is_left_out_of_the_measurement(capfd):
    """The measurement runs the program batched over thousands of perturbations: a
    jax.debug.print in the step (allowed: it computes nothing) is dropped there, not printed,
    compiled and run once per perturbation."""
    def step(c, row):
        c = 0.9 * c + 0.1 * row
        jax.debug.print("carry {c}", c=c)
        return c, c

    capfd.readouterr()
    assert _reach(lambda x: jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]) == [(128, 128)]
    assert "carry" not in capfd.readouterr().out


def _scanned(x):
    return jax.lax.scan(_step, jnp.zeros_like(x[0]), x)[1]


@pytest.mark.parametrize("fn", [
    lambda x: _closed_form(x) + 0.0 * _scanned(x),
    lambda x: (lambda s: _closed_form(x) + (s - s))(_scanned(x)),
    lambda x: (lambda s: _closed_form(x) + jnp.where(s == s, 0.0, s))(_scanned(x)),
    lambda x: _closed_form(x) + 1e-30 * _scanned(x),
    lambda x: _closed_form(x) + jnp.round(1e-3 * jnp.tanh(_scanned(x))),
    # a dummy: the carry kept times one plus the data times zero (or times 1e-30), zero throughout
    lambda x: _closed_form(x) + jax.lax.scan(lambda c, r: ((1.0 * c + 0.0 * r),) * 2, jnp.zeros_like(x[0]), x)[1],
    lambda x: _closed_form(x) + jax.lax.scan(lambda c, r: ((1.0 * c + 1e-30 * r),) * 2, jnp.zeros_like(x[0]), x)[1],
], ids=["times_zero", "minus_itself", "where_equal_to_itself", "tiny_factor",
        "rounded_to_zero", "dummy", "dummy_tiny_data"])
def test_a_full_recurrence_whose_value_the_output_never_shows_reaches_nothing(fn):
    """NaN flows through ``0 * s``, ``s - s`` and the untaken side of a ``where`` that compares
    ``s`` with itself, and a tiny factor keeps it; a finite move of the loop's results shows
    that the output does not change. A dummy recurrence's results show, but a move of its data
    does not."""
    assert _reach(fn) == [(0, 128)]


@pytest.mark.parametrize("fn", [
    # a decay so small that the carry's share rounds away, in both forms of the step
    lambda x: jax.lax.scan(lambda c, r: _step(c, r, 1e-10), jnp.zeros_like(x[0]), x)[1],
    lambda x: jax.lax.scan(lambda c, r: ((c + (1 - 1e-10) * (r - c)),) * 2, jnp.zeros_like(x[0]), x)[1],
    # a running maximum: the carry wins only where it is larger
    lambda x: jax.lax.scan(lambda c, r: (jnp.maximum(c, r),) * 2, jnp.full_like(x[0], -jnp.inf), x)[1],
    # a clipped recurrence, saturated on some elements
    lambda x: jax.lax.scan(lambda c, r: (jnp.clip(0.9 * c + r, -0.5, 0.5),) * 2, jnp.zeros_like(x[0]), x)[1],
    # a running minimum of a saturated function of the data
    lambda x: jax.lax.scan(lambda c, r: (jnp.minimum(c, jnp.tanh(r)),) * 2, jnp.ones_like(x[0]), x)[1],
    # an update only where the data are positive: NaN in the data takes the other side
    lambda x: jax.lax.scan(lambda c, r: (jnp.where(r > 0, 0.5 * c + r, c),) * 2, jnp.zeros_like(x[0]), x)[1],
], ids=["tiny_decay", "tiny_decay_increment_form", "running_max", "clipped", "running_min_of_tanh",
        "masked_by_the_data"])
def test_a_recurrence_that_absorbs_its_carry_still_reaches_every_element(fn):
    """Where rounding or a comparison absorbs what the carry adds, the carry's reach is still
    read structurally: only the loop's results are moved by a finite amount, and the output
    is those results; a step's data are moved both ways, far enough that a comparison turns."""
    assert _reach(fn) == [(128, 128)]


def test_a_buffer_the_loop_only_carries_along_is_no_source():
    def fn(x):
        def body(t, state):
            c, out = state
            c = 0.9 * c + 0.1 * x[t, 0]
            return c, out.at[t, 0].set(c)
        return jax.lax.fori_loop(0, x.shape[0], body, (jnp.zeros(()), _closed_form(x)))[1]

    assert _reach(fn) == [(32, 128)]


def _scanned_or(test, other=jnp.zeros_like):
    """The scan where ``test(x)`` holds, ``other`` where it does not, by a lax.cond around it."""
    def fn(x):
        return jax.lax.cond(test(x), lambda x: jax.lax.scan(_step, jnp.zeros_like(x[0]), x)[1], other, x)
    return fn


@pytest.mark.parametrize("test", [
    lambda x: jnp.array(x.shape[0]) >= 32,
    lambda x: jnp.array(x.shape[0]) == 32,   # the one extent measured
    lambda x: jnp.array(x.shape[0]) > 1,     # all but T = 1
    # on the data: whatever the judge's own inputs take, the cases may take either branch
    lambda x: x[0, 0] > 0,
    lambda x: x[0, 0] == x[0, 0],
    # on the length through the data's shape, or joined with the data
    lambda x: jnp.sum(jnp.ones_like(x[:, 0])) == 32,
    lambda x: (jnp.array(x.shape[0]) == 32) | jnp.isnan(x[0, 0]),
], ids=["length_at_least_32", "length_32", "length_above_1", "data_positive", "data_finite",
        "length_from_data_shape", "length_or_data"])
def test_a_cond_the_cases_may_take_either_way_is_measured_both_ways(test):
    assert _reach(_scanned_or(test, _closed_form)) == [(0, 128)]


@pytest.mark.parametrize("test", [
    lambda x: x.shape[0] > 0,                   # decided while tracing: a literal
    lambda x: jnp.array(x.shape[0]) > 0,        # evaluated at every extent: true at all
    lambda x: jnp.array(x.shape[0]) <= 64,
    lambda x: jax.jit(lambda t: t >= 1)(jnp.array(x.shape[0])),
    lambda x: jnp.where(jnp.array(x.size) > 0, True, False),
], ids=["python_test", "value_test", "value_at_most_64", "jitted_test", "size_through_where"])
def test_a_cond_true_over_the_whole_range_is_the_branch_it_takes(test):
    assert _reach(_scanned_or(test)) == [(128, 128)]


def test_a_cond_whose_test_comes_through_a_call_is_evaluated_there():
    """The index computed outside the jitted function that holds the cond, from T's value."""
    def fn(x):
        inner = jax.jit(lambda x, n: _scanned_or(lambda x: n > 0)(x))
        return inner(x, jnp.array(x.shape[0]))

    assert _reach(fn) == [(128, 128)]
    switched = lambda x: jax.lax.switch(jnp.array(x.shape[0]) // 30, [  # noqa: E731
        _scanned_or(lambda x: True), _scanned_or(lambda x: True), jnp.zeros_like], x)
    assert _reach(switched) == [(0, 128), (0, 128)]


def test_the_branches_a_cond_takes_over_the_range():
    from judge.worker import reach, reach_branch

    made = symbolic.dims(jax, SYMBOLS)
    found = []
    for test in (lambda x: jnp.array(x.shape[0]) > 0, lambda x: jnp.array(x.shape[0]) // 30,
                 lambda x: x[0, 0] > 0, lambda x: x.shape[0] >= 1,
                 # computed by a loop: not evaluated at every extent
                 lambda x: jax.lax.fori_loop(0, 3, lambda i, t: t - 1, jnp.array(x.shape[0]))):
        fn = lambda x: jax.lax.switch(jnp.asarray(test(x), jnp.int32),  # noqa: E731
                                      [_scanned_or(lambda x: True)] * 3, x)
        closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((made["T"], 4), jnp.float32))
        loop = next(e for e in closed.jaxpr.eqns[-1].params["branches"][1].jaxpr.eqns if e.primitive.name == "cond")
        scan = next(e for e in loop.params["branches"][1].jaxpr.eqns if e.primitive.name == "scan")
        found.append(reach_branch.taken(closed, reach.path_to(closed.jaxpr, scan), SYMBOLS))
    # a bool's True is branch 1, data may select any branch; the inner cond is a literal
    assert found == [[(1,), (1,)], [(0, 1, 2), (1,)], [(0, 1, 2), (1,)], [(1,), (1,)], [(0, 1, 2), (1,)]]
    unbounded = {"T": [1, None]}
    fn = _scanned_or(lambda x: jnp.array(x.shape[0]) > 0)
    closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((symbolic.dims(jax, unbounded)["T"], 4), jnp.float32))
    scan = next(e for e in closed.jaxpr.eqns[-1].params["branches"][1].jaxpr.eqns if e.primitive.name == "scan")
    assert reach_branch.taken(closed, reach.path_to(closed.jaxpr, scan), unbounded) == [(0, 1)]


def test_an_index_too_costly_to_evaluate_at_every_extent_may_take_any_branch():
    """Each value on the way to an index is made at every point of the dims' ranges at once:
    where that would be more than ``MAX_WORK`` elements (here 4096 points of a 256 x 256 value,
    a GiB), the index is not evaluated and every branch counts as taken."""
    from judge.worker import reach, reach_branch

    wide = {"T": [1, 4096]}
    fn = _scanned_or(lambda x: jnp.sum(jnp.ones((256, 256)) * x.shape[0]) > 0)
    closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((symbolic.dims(jax, wide)["T"], 4), jnp.float32))
    scan = next(e for e in closed.jaxpr.eqns[-1].params["branches"][1].jaxpr.eqns if e.primitive.name == "scan")
    assert reach_branch.taken(closed, reach.path_to(closed.jaxpr, scan), wide) == [(0, 1)]
    small = {"T": [1, 8]}  # the same index over 8 points is evaluated: only True is taken
    closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((symbolic.dims(jax, small)["T"], 4), jnp.float32))
    scan = next(e for e in closed.jaxpr.eqns[-1].params["branches"][1].jaxpr.eqns if e.primitive.name == "scan")
    assert reach_branch.taken(closed, reach.path_to(closed.jaxpr, scan), small) == [(1,)]


@pytest.mark.parametrize("problem_id, wanted", [("ema_scan", True), ("per_example_clip", False),
                                                ("spectral_norm", False)])
def test_the_reach_is_measured_only_where_a_rule_reads_it(problem_id, wanted):
    """Measuring the reach runs the program again, so the request asks for it only where a
    rule reads it (a recurrence), and a worker that is not asked leaves it out."""
    from pathlib import Path

    from judge.grade.request import build_request
    from judge.problem import spec

    root = Path(__file__).resolve().parent.parent
    problem = spec.load(root / "problems" / f"{problem_id}.yaml")
    request = build_request(problem, root / "reference" / f"{problem_id}.py", problem.examples[:1])
    assert request["reach"] is wanted


def test_a_worker_not_asked_for_the_reach_does_not_measure_it():
    made = symbolic.dims(jax, SYMBOLS)
    closed = jax.make_jaxpr(lambda x: jax.lax.scan(_step, jnp.zeros(4), x)[1])(
        jax.ShapeDtypeStruct((made["T"], 4), jnp.float32))
    loops = program.summarize(closed, symbolic=True, symbols=None, outputs=1)["loops"]
    assert loops and all("reach" not in lp for lp in loops)


def _together(fn, d=4):
    made = symbolic.dims(jax, SYMBOLS)
    closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((made["T"], d), jnp.float32))
    loops = program.summarize(closed, symbolic=True, symbols=SYMBOLS, outputs=1)["loops"]
    return [(lp["reach"]["reached"], lp["reach"]["together"]) if lp.get("reach") else None for lp in loops]


def _per_column(x, columns):
    return jnp.stack([jax.lax.scan(_step, 0.0, x[:, j])[1] for j in columns], axis=1)


@pytest.mark.parametrize("fn, found", [
    # one scan per column: 32 elements each, the whole output together
    (lambda x: _per_column(x, range(4)), [(32, 128)] * 4),
    # two scans of the same column beside a closed form: that column only, together too
    (lambda x: _closed_form(x).at[:, :1].set(
        0.5 * (_per_column(x, [0]) + _per_column(x * 1.0, [0]))), [(32, 32)] * 2),
    # a scan over one column, its results broadcast to every column, beside another scan of
    # a column: each column of the first is one carry element a step, matched once
    (lambda x: jnp.concatenate([jnp.broadcast_to(_per_column(x, [0]), (x.shape[0], 3)),
                                _per_column(x, [3])], axis=1), [(32, 64)] * 2),
], ids=["scan_per_column", "two_scans_of_one_column", "broadcast_column_beside_another"])
def test_loops_of_one_length_are_matched_together(fn, found):
    assert _together(fn) == found
