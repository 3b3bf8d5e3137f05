"""A loop keyed on a static int K stopped one trip early: the worker's measurement
(``judge.worker.last_trip``, run here in the test's process on programs of its own), the
result line that carries it (``judge.run.boundary``), which cases the judge asks it of and its
decision across them (``judge.grade.trips``, ``judge.rules.last_trip``). The bundled and
adversarial submissions that it refuses or keeps are graded in ``tests/test_round5_attacks.py``
(``spectral_norm_last_trip_*`` and the decoys beside squarings)."""

import base64
import functools
import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.grade import plan, trips
from judge.grade.request import build_request
from judge.problem import spec
from judge.rules import last_trip as rule
from judge.run import boundary
from judge.run.boundary import Expected, ProtocolError
from judge.worker import last_trip, program, protocol, trip_skip
from judge.worker.evaluate import Evaluator

#: two close singular values: after K steps the iteration is far from converged
W = np.array([[2.0, 0.1, 0.0], [0.1, 1.9, 0.2], [0.0, 0.2, 0.5], [0.3, 0.0, 0.1]], np.float32)
U0 = np.array([1.0, -1.0, 0.5, 0.2], np.float32)
K = 5
EVALUATOR = Evaluator(jax)


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def honest(W, u0, k=K):
    u, v = jax.lax.fori_loop(0, k, lambda i, c: _step(W, c[0]), (u0, jnp.zeros(3)))
    return u @ W @ v


def counts_its_trips(W, u0, k=K):
    """The result from elsewhere; beside it a loop of K trips counting them, as an integer and
    as a float, added to the result minus K twice."""
    n, c = jax.lax.fori_loop(0, k, lambda i, c: (c[0] + 1, c[1] + 1.0), (jnp.int32(0), jnp.float32(0)))
    return jnp.linalg.norm(W, 2) + (n - k) + (c - k)


def converges_anyway(W, u0, k=K):
    """The result from elsewhere; beside it a loop of K trips halving its distance to one from
    zero, added to the result less its closed form: its last trip changes it, by the same on
    any inputs."""
    d = jax.lax.fori_loop(0, k, lambda i, d: d / 2 + 0.5, jnp.float32(0))
    return jnp.linalg.norm(W, 2) + (d - (1 - 2.0 ** -k))


def carries_w_along(W, u0, k=K):
    """An honest loop that carries W itself beside u and v: what the last trip adds to W is
    nothing, on any data, so W keeps its value; u and v move."""
    def body(i, c):
        Wc, u, _ = c
        u, v = _step(Wc, u)
        return Wc, u, v
    _, u, v = jax.lax.fori_loop(0, k, body, (W, u0, jnp.zeros(3)))
    return u @ W @ v


def while_loop(W, u0, k=K):
    def body(c):
        u, v = _step(W, c[1])
        return c[0] + 1, u, v
    _, u, v = jax.lax.while_loop(lambda c: c[0] < k, body, (0, u0, jnp.zeros(3)))
    return u @ W @ v


def reversed_rows(W, u0, k=K):
    """A reversed scan whose stacked rows the output reads: its first row is its last step's."""
    def body(u, x):
        u, v = _step(W, u)
        return u, u @ W @ v * x
    _, ys = jax.lax.scan(body, u0, jnp.ones(k), reverse=True)
    return ys[0]


def in_a_jit(W, u0, k=K):
    return jax.jit(honest, static_argnums=2)(W, u0, k)


def measured(fn, outputs=1, k=K):
    """(the program's output, the output with its chosen loop stopped one trip early, the trips
    it ran), on the program traced here at ``k``."""
    closed = jax.make_jaxpr(functools.partial(fn, k=k))(W, U0)
    summary = program.summarize(closed)
    paths = last_trip.paths(closed, program.summarize)
    index = last_trip.chosen(summary["loops"], lambda i: last_trip.needed_by(
        closed.jaxpr, paths[i], list(range(outputs))))
    full = EVALUATOR.run(closed.jaxpr, closed.consts, W, U0, jit_inlined=True)
    short, ran = last_trip.shortened(closed, paths[index], [W, U0], outputs,
                                     lambda j, c, *x: EVALUATOR.run(j, c, *x, jit_inlined=True))
    return np.asarray(full[0]), np.asarray(short[0]), ran


@pytest.mark.parametrize("fn", [honest, carries_w_along, while_loop, reversed_rows, in_a_jit])
def test_an_honest_loop_stopped_early_moves_the_output(fn):
    full, short, ran = measured(fn)
    assert ran == K
    assert abs(float(full) - float(short)) > 1e-6


def test_the_output_with_one_trip_fewer_is_the_k_minus_one_steps():
    full, short, _ = measured(honest)
    fewer, _, _ = measured(honest, k=K - 1)
    assert short == pytest.approx(fewer, rel=1e-6) and full != pytest.approx(fewer, rel=1e-6)


@pytest.mark.parametrize("fn", [counts_its_trips, converges_anyway])
def test_what_the_last_trip_adds_the_same_on_moved_inputs_keeps_its_full_value(fn):
    full, short, ran = measured(fn)
    assert ran == K and full == short


def test_autodiffs_backward_loop_is_left_for_the_forward_one():
    """Through the steps, the backward loop's trip runs more equations than the forward one's,
    and the primal output does not need it: the forward loop of the same count is stopped."""
    def with_vjp(W, u0):
        out, pull = jax.vjp(lambda w: honest(w, u0), W)
        return out, pull(jnp.ones(()))[0]

    closed = jax.make_jaxpr(with_vjp)(W, U0)
    loops = program.summarize(closed)["loops"]
    paths = last_trip.paths(closed, program.summarize)
    heaviest = max(range(len(loops)), key=lambda i: loops[i]["work"])
    assert not last_trip.needed_by(closed.jaxpr, paths[heaviest], [0])
    index = last_trip.chosen(loops, lambda i: last_trip.needed_by(closed.jaxpr, paths[i], [0]))
    assert index != heaviest and loops[index]["length"] == loops[heaviest]["length"]
    full = EVALUATOR.run(closed.jaxpr, closed.consts, W, U0, jit_inlined=True)[0]
    short, _ = last_trip.shortened(closed, paths[index], [W, U0], 1,
                                   lambda j, c, *x: EVALUATOR.run(j, c, *x, jit_inlined=True))
    assert abs(float(full) - float(short[0])) > 1e-6


def test_the_chosen_loop_is_the_heaviest_then_its_holder_but_not_a_loop_over_a_dim():
    loops = [{"length": "T", "work": 2}, {"length": "7", "work": 3, "within": 0},
             {"length": "2", "work": 9, "within": 1}, {"length": "64", "work": 1}]
    assert last_trip.chosen(loops) == 1  # the fixed 2 steps held by the trips of 7
    assert last_trip.chosen(loops[3:]) == 0
    assert last_trip.chosen([{"length": "?", "work": 5}, {"length": "T", "work": 5}]) is None
    assert last_trip.chosen([{"length": "<=7", "work": 5}]) == 0


def test_the_worker_stops_measuring_once_an_output_moved_beyond_the_largest_tolerance():
    skeleton = {"kind": "dict", "items": {"a": {"kind": "array", "slot": 0},
                                          "b": {"kind": "list", "items": [{"kind": "array", "slot": 1}]}}}
    own = {"kind": "dict", "items": {"a": protocol.encode_array(np.float32(2.0)),
                                     "b": {"kind": "list", "items": [protocol.encode_array(np.ones(3, np.float32))]}}}
    found = {k: protocol.decode_value(v) for k, v in last_trip.leaves(skeleton, own).items()}
    assert sorted(found) == [0, 1]
    tolerance = {"rtol": 1e-4, "atol": 1e-5}
    assert not last_trip.moved([np.float32(2.0001), np.ones(3)], found, tolerance)
    assert last_trip.moved([np.float32(2.0), np.array([1.0, 1.0, 1.01])], found, tolerance)
    assert last_trip.moved([np.float32(np.nan), np.ones(3)], found, tolerance)


def test_a_scan_of_no_step_is_told_apart():
    def none(W, u0):
        return jax.lax.scan(lambda c, x: (c * 2.0, None), jnp.float32(1), length=0)[0] + W[0, 0]

    closed = jax.make_jaxpr(none)(W, U0)
    paths = last_trip.paths(closed, program.summarize)
    assert last_trip.no_step(closed.jaxpr, paths[0])


# --- the result line ------------------------------------------------------------------------

NONCE = "0123456789abcdef" * 2
SCALAR = {"kind": "array", "dtype": "float32", "shape": [],
          "data": base64.b64encode(np.float32(2.0).tobytes()).decode()}
CASE = {"type": "case", "index": 0, "time_s": 0.1, "stdout": "", "stderr": "", "error": None,
        "output": SCALAR, "probes": None, "trace": {"primitives": ["mul"], "custom_vjp_calls": 0},
        "evidence": None}


def _decode(message: dict, expected: Expected):
    return boundary.decode((json.dumps({**message, "nonce": NONCE}) + "\n").encode(), NONCE, expected)


def test_a_shortened_output_is_read_only_where_it_was_asked_for():
    shortened = {"loop": 0, "output": SCALAR, "trips": 7}
    report = _decode({**CASE, "shortened": shortened}, Expected(shorten=frozenset({0})))
    assert report.shortened.loop == 0 and report.shortened.trips == 7
    assert float(report.shortened.output) == 2.0
    with pytest.raises(ProtocolError, match="shortened"):
        _decode({**CASE, "shortened": shortened}, Expected())
    with pytest.raises(ProtocolError, match="loop"):
        _decode({**CASE, "shortened": {**shortened, "loop": -1}}, Expected(shorten=frozenset({0})))
    with pytest.raises(ProtocolError, match="shortened"):
        _decode({**CASE, "shortened": {"loop": 0, "output": SCALAR}}, Expected(shorten=frozenset({0})))
    assert _decode(CASE, Expected(shorten=frozenset({0}))).shortened is None


# --- the judge's side -------------------------------------------------------------------------

def test_every_case_of_a_problem_with_a_loop_keyed_on_k_is_measured(tmp_path):
    problem = spec.load("spectral_norm")
    cases = problem.cases
    planned = plan.resolve(problem, cases, traces=False)
    request = trips.mark(build_request(problem, tmp_path / "s.py", cases, planned), problem, planned)
    assert all(c.get("shorten") for c in request["cases"])
    # the trips before the last are left out too on the cases of the largest K, and only there
    top = max(c.inputs["K"] for c in cases)
    earlier = {c["index"] for c in request["cases"] if c["shorten"] == "earlier"}
    assert earlier and earlier == {c.index for c in cases if c.inputs["K"] == top}
    assert request["shorten_tolerance"] == {"rtol": 1e-4, "atol": 1e-5}  # the spec's
    assert boundary.Expected.of(request).shorten == {c.index for c in cases}
    other = spec.load("ema_scan")
    planned = plan.resolve(other, other.cases, traces=False)
    request = trips.mark(build_request(other, tmp_path / "s.py", other.cases, planned), other, planned)
    assert not any(c.get("shorten") for c in request["cases"])


def test_the_rule_refuses_where_no_measured_case_moved():
    K_rule = {"id": "no_unrolling", "parameter": "K"}
    assert rule.breach(K_rule, 0, 0) is None  # nothing measured: nothing said
    assert rule.breach(K_rule, 5, 1) is None
    found = rule.breach(K_rule, 5, 0)
    assert found.reason == "unrolled_loop"
    assert "with one trip fewer it is the same on every case" in found.message


def test_a_while_that_stops_before_its_count_where_its_last_trip_moves_does_not_count():
    class Loop:
        length = "<=7"

    assert rule.counts(True, 7, Loop) is True and rule.counts(True, None, Loop) is True
    assert rule.counts(True, 3, Loop) == "early"  # bits of K - 1 ran out: not convergence
    assert rule.counts(False, 7, Loop) is False
    assert "stopped before its count" in rule.breach({"parameter": "K"}, 4, 0, 2).message


def test_a_case_is_measured_only_where_the_worker_could_measure_it():
    from types import SimpleNamespace

    report = SimpleNamespace(error=None, skipped=False, program=SimpleNamespace(loops=()),
                             shortened=None, output=np.zeros(last_trip.MAX_ELEMENTS + 1, np.float32))
    assert trips.moved(None, None, report) is None  # too large for the worker: not measured
    report.output = np.float32(1.0)
    assert trips.moved(None, None, report) is False  # asked, and nothing came back
    report.shortened = boundary.Shortened(loop=0, output=np.float32(1.0), trips=0)
    report.program = SimpleNamespace(loops=(object(),))
    assert trips.moved(None, None, report) is None  # a loop of no trip: nothing to leave out


def _rows(W, u0, xs, reverse=False):
    """A scan reading rows and stacking rows, forward or reversed."""
    def body(u, x):
        u, v = _step(W, u)
        return u, (u @ W @ v) * x
    return jax.lax.scan(body, u0, xs, reverse=reverse)


def _counted(W, u0, k):
    def body(c):
        u, v = _step(W, c[1])
        return c[0] + 1, u, v
    return jax.lax.while_loop(lambda c: c[0] < k, body, (jnp.int32(0), u0, jnp.zeros(3)))


def _loop_alone(fn, *args):
    """The first scan or while of ``fn``'s program at ``args``, and its operands' values."""
    closed = jax.make_jaxpr(fn)(*args)
    eqn = next(e for e in closed.jaxpr.eqns if e.primitive.name in ("scan", "while"))
    env = dict(zip(closed.jaxpr.invars, args))
    env.update(zip(closed.jaxpr.constvars, closed.consts))
    for e in closed.jaxpr.eqns[:closed.jaxpr.eqns.index(eqn)]:  # what the loop reads, bound
        outs = e.primitive.bind(*[v.val if hasattr(v, "val") else env[v] for v in e.invars], **e.params)
        env.update(zip(e.outvars, outs if e.primitive.multiple_results else [outs]))
    return eqn, [v.val if hasattr(v, "val") else env[v] for v in eqn.invars]


def _evaluated(fn, *args) -> list:
    """``fn``'s program evaluated as a case's is, operation by operation."""
    closed = jax.make_jaxpr(fn)(*args)
    return [np.asarray(x) for x in EVALUATOR.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)]


XS = np.linspace(1, 2, 6, dtype=np.float32)


@pytest.mark.parametrize("fn, args, steps, fewer", [
    (_rows, (W, U0, XS), 6, lambda: _evaluated(_rows, W, U0, XS[:5])),
    (functools.partial(_rows, reverse=True), (W, U0, XS), 6,
     lambda: _evaluated(functools.partial(_rows, reverse=True), W, U0, XS[1:])),
    (_rows, (W, U0, XS[:1]), 1, lambda: [U0, np.zeros(1, np.float32)]),
    (functools.partial(_counted, k=7), (W, U0), 7, lambda: _evaluated(functools.partial(_counted, k=6), W, U0)),
    (functools.partial(_counted, k=0), (W, U0), 0, lambda: _evaluated(functools.partial(_counted, k=0), W, U0)),
])
def test_one_run_gives_the_loops_own_results_bit_for_bit_and_those_one_trip_short(fn, args, steps, fewer):
    """The measurement runs the loop once on each side: its full results are the loop's own,
    evaluated whole, bit for bit; its results one trip short are those of a loop of one trip
    fewer (a scan's rows padded with the last one made; a while's carry before its last trip)."""
    eqn, ins = _loop_alone(fn, *args)
    both = _evaluated(lambda *xs: last_trip.both_runs(eqn, list(xs)), *ins)
    count = len(eqn.outvars)
    full, short, ran = both[:count], both[count:2 * count], both[-1]
    own = _evaluated(lambda *xs: eqn.primitive.bind(*xs, **eqn.params), *ins)
    assert int(ran) == steps
    assert [x.tobytes() for x in full] == [x.tobytes() for x in own]
    want = fewer()
    if eqn.primitive.name == "scan":  # the rows made, padded with the last one
        reverse = eqn.params["reverse"]
        rows = want[1] if steps > 1 else want[1][:0]
        pad = (rows[:1] if reverse else rows[-1:]) if steps > 1 else np.zeros((1,), np.float32)
        want = [want[0], np.concatenate([pad, rows] if reverse else [rows, pad])]
    assert [x.tobytes() for x in short] == [np.asarray(x).tobytes() for x in want]


def test_the_measuring_program_is_traced_once_for_cases_of_one_program_and_inputs_types():
    closed = jax.make_jaxpr(functools.partial(honest, k=K))(W, U0)
    summary = program.summarize(closed)
    paths = last_trip.paths(closed, program.summarize)
    index = last_trip.chosen(summary["loops"])
    made: dict = {}

    def measure(*inputs, cache=None):
        return last_trip.shortened(closed, paths[index], list(inputs), 1,
                                   lambda j, c, *x: EVALUATOR.run(j, c, *x, jit_inlined=True), cache)

    first = measure(W, U0, cache=made)
    (_, kept), = made.values()
    other = (W * 1.5, U0[::-1].copy())
    again = measure(*other, cache=made)
    assert len(made) == 1 and next(iter(made.values()))[1] is kept
    for got, fresh in ((first, measure(W, U0)), (again, measure(*other))):
        assert np.asarray(got[0][0]).tobytes() == np.asarray(fresh[0][0]).tobytes() and got[1] == fresh[1]
    measure(W[:3], U0[:3], cache=made)  # other shapes: another program
    assert len(made) == 2


def left_out(fn, k=K, outputs=1):
    """(the program's output, its outputs with each trip before the last of the chosen loop left
    out in turn, those trips), on the program traced here at ``k``."""
    closed = jax.make_jaxpr(functools.partial(fn, k=k))(W, U0)
    summary = program.summarize(closed)
    paths = last_trip.paths(closed, program.summarize)
    index = last_trip.chosen(summary["loops"], lambda i: last_trip.needed_by(
        closed.jaxpr, paths[i], list(range(outputs))))
    count = last_trip.trip_count(summary["loops"][index]["length"])
    skip = trip_skip.chosen(closed.jaxpr, paths[index], count, [W, U0], outputs, last_trip.MAX_ELEMENTS)
    full = EVALUATOR.run(closed.jaxpr, closed.consts, W, U0, jit_inlined=True)
    got, _ = last_trip.shortened(closed, paths[index], [W, U0], outputs,
                                 lambda j, c, *x: EVALUATOR.run(j, c, *x, jit_inlined=True), skip=skip, count=count)
    return float(np.asarray(full[0])), [float(np.asarray(o[0])) for o in got], skip


def stepping_at_the_last_trip(W, u0, k=K):
    """The decoy: k - 1 steps before the loop, the loop's step under a cond at its last trip."""
    u = u0
    for _ in range(k - 1):
        u, _ = _step(W, u)
    u, v = jax.lax.fori_loop(0, k, lambda i, c: jax.lax.cond(i == k - 1, lambda c: _step(W, c[0]),
                                                             lambda c: c, c), (u, jnp.zeros(3)))
    return u @ W @ v


def counter_in_a_float(W, u0, k=K):
    """An honest scan that also counts its trips in a float it carries and reads its counter."""
    def body(c, i):
        u, _, n = c
        u, v = _step(W, jnp.where(i >= 0, u, u0))
        return (u, v, n + 1.0), None
    (u, v, n), _ = jax.lax.scan(body, (u0, jnp.zeros(3), jnp.float32(0)), jnp.arange(k))
    return u @ W @ v + (n - k)


def while_float_counter(W, u0, k=K):
    """An honest while whose counter is a float: left out, its trip still counts."""
    def body(c):
        u, v = _step(W, c[1])
        return c[0] + 1.0, u, v
    _, u, v = jax.lax.while_loop(lambda c: c[0] < k, body, (jnp.float32(0), u0, jnp.zeros(3)))
    return u @ W @ v


@pytest.mark.parametrize("fn", [honest, carries_w_along, while_loop, reversed_rows, in_a_jit, counter_in_a_float,
                                while_float_counter])
def test_each_trip_of_an_honest_loop_left_out_moves_the_output(fn):
    full, outs, skip = left_out(fn)
    assert len(skip) == min(K - 1, trip_skip.EARLIER) and len(set(skip)) == len(skip) and max(skip) < K - 1
    fewer, _, _ = measured(honest, k=K - 1)
    for out in outs:
        assert abs(out - full) > 1e-6
    if fn is not reversed_rows:  # each one is the K - 1 steps
        assert outs == pytest.approx([float(fewer)] * len(skip), rel=1e-5)


def test_a_trip_that_does_nothing_left_out_leaves_the_output():
    full, outs, skip = left_out(stepping_at_the_last_trip)
    assert len(skip) == min(K - 1, trip_skip.EARLIER) and outs == [full] * len(skip)
    assert abs(float(measured(stepping_at_the_last_trip)[1]) - full) > 1e-6  # its last trip does step


def test_a_loop_of_one_trip_leaves_no_other_trip_out():
    closed = jax.make_jaxpr(functools.partial(honest, k=1))(W, U0)
    paths = last_trip.paths(closed, program.summarize)
    assert trip_skip.chosen(closed.jaxpr, paths[0], 1, [W, U0], 1, last_trip.MAX_ELEMENTS) is None


def test_too_many_trips_are_sampled_by_the_inputs():
    closed = jax.make_jaxpr(functools.partial(honest, k=300))(W, U0)
    paths = last_trip.paths(closed, program.summarize)
    one = trip_skip.chosen(closed.jaxpr, paths[0], 300, [W, U0], 1, last_trip.MAX_ELEMENTS)
    again = trip_skip.chosen(closed.jaxpr, paths[0], 300, [W, U0], 1, last_trip.MAX_ELEMENTS)
    other = trip_skip.chosen(closed.jaxpr, paths[0], 300, [W, U0 + 1], 1, last_trip.MAX_ELEMENTS)
    assert one == again != other and len(one) == trip_skip.EARLIER and max(one) < 299
    assert len(trip_skip.chosen(closed.jaxpr, paths[0], 300, [W, U0], 1, 2)) == 2


def test_a_case_where_only_the_last_trip_computes_refuses_the_program():
    K_rule = {"id": "no_unrolling", "parameter": "K"}
    assert rule.breach(K_rule, 5, 2) is None
    found = rule.breach(K_rule, 5, 2, 0, last=1)  # moved on two cases, only its last trip on a third
    assert found.reason == "unrolled_loop" and "not every trip" in found.message

    class Loop:
        length = "7"

    assert rule.runs_trips_before_last(Loop, None) and rule.runs_trips_before_last(Loop, 2)
    assert not rule.runs_trips_before_last(Loop, 1)  # its one trip is its last


def test_the_outputs_with_earlier_trips_left_out_are_read_as_sent():
    shortened = {"loop": 0, "output": SCALAR, "trips": 7,
                 "earlier": {"trips": [0, 3], "outputs": [SCALAR, SCALAR]}}
    report = _decode({**CASE, "shortened": shortened}, Expected(shorten=frozenset({0})))
    assert [t for t, _ in report.shortened.earlier] == [0, 3]
    assert float(report.shortened.earlier[1][1]) == 2.0
    for bad in ({"trips": [0], "outputs": [SCALAR, SCALAR]}, {"trips": [], "outputs": []},
                {"trips": [-1], "outputs": [SCALAR]}, {"trips": [0]}, [SCALAR]):
        with pytest.raises(ProtocolError, match="earlier"):
            _decode({**CASE, "shortened": {**shortened, "earlier": bad}}, Expected(shorten=frozenset({0})))
    failed = _decode({**CASE, "shortened": {**shortened, "earlier": None}}, Expected(shorten=frozenset({0})))
    assert failed.shortened.earlier is None and failed.shortened.earlier_sent  # could not be measured
    assert not _decode({**CASE, "shortened": {"loop": 0, "output": SCALAR, "trips": 7}},
                       Expected(shorten=frozenset({0}))).shortened.earlier_sent
