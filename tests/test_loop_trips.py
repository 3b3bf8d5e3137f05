"""How many times a loop runs, read from the traced program without running it
(``judge.worker.loops``), and ``no_unrolling`` keyed on a static int parameter asking that the
loop's trips track it. The submissions graded whole are in tests/adversarial/round5/
(``spectral_norm_*``, ``ema_scan_while_*``)."""

from dataclasses import replace

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from judge import rules
from judge.errors import SpecError
from judge.rules import no_unrolling
from judge.run.boundary import Program
from judge.run.summary import Loop
from judge.worker import program, symbolic
from tests.test_rule_dtypes_and_loops import _with_K
from tests.test_rule_vocabulary import _load

K = 5
ZERO, ONE = jnp.int32(0), jnp.int32(1)  # constants the traced program holds


def _counted(start, test, step):
    """A while loop over a counter: ``start``, ``test(i)``, ``i -> step(i)``, a float carry
    multiplied by x at each trip."""
    def fn(x):
        body = lambda c: (step(c[0]), c[1] * x)  # noqa: E731
        return lax.while_loop(lambda c: test(c[0]), body, (start(x), x))[1]
    return fn


CONCRETE = [
    ("python int bound", _counted(lambda x: 0, lambda i: i < K, lambda i: i + 1), "5"),
    ("bound on the left", _counted(lambda x: 0, lambda i: K > i, lambda i: 1 + i), "5"),
    ("up to and with", _counted(lambda x: 1, lambda i: i <= K, lambda i: i + 1), "5"),
    ("counting down", _counted(lambda x: K, lambda i: i > 0, lambda i: i - 1), "5"),
    ("down to and with 0", _counted(lambda x: K - 1, lambda i: i >= 0, lambda i: i - 1), "5"),
    ("by two", _counted(lambda x: 0, lambda i: i < 2 * K, lambda i: i + 2), "5"),
    ("by two, odd span", _counted(lambda x: 0, lambda i: i < K, lambda i: i + 2), "3"),
    ("never", _counted(lambda x: 9, lambda i: i < K, lambda i: i + 1), "0"),
    ("a constant 7", _counted(lambda x: 0, lambda i: i < 7, lambda i: i + 1), "7"),
    ("fori over an array bound",
     lambda x: lax.fori_loop(0, jnp.asarray(K, jnp.int32), lambda i, c: c * x, x), "5"),
    ("fori from 1", lambda x: lax.fori_loop(1, K, lambda i, c: c * x, x), "4"),
    # the count is data, or the loop of a form not read: "?"
    ("bound from the data", lambda x: lax.while_loop(lambda c: c[0] < (x[0] * 0).astype(jnp.int32) + 7,
                                                     lambda c: (c[0] + 1, c[1] * x), (0, x))[1], "?"),
    ("start from the data", _counted(lambda x: (x[0] * 0).astype(jnp.int32), lambda i: i < K,
                                     lambda i: i + 1), "?"),
    ("moving away", _counted(lambda x: 0, lambda i: i < K, lambda i: i - 1), "?"),
    ("two tests", _counted(lambda x: 0, lambda i: (i < K) & (i < 3), lambda i: i + 1), "3"),
    # a test beside no count is read from that reads the counter: a bound in disguise
    ("a test on the counter beside", _counted(lambda x: 0, lambda i: (i < K) & (i * i < 9), lambda i: i + 1),
     "?"),
    # a test on a value the loop computes beside: it may stop early
    ("a test on the data beside", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & (c[1].sum() < 1e6), lambda c: (c[0] + 1, c[1] * x), (0, x))[1], "<=5"),
    ("a flag the body carries beside", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & c[2], lambda c: (c[0] + 1, c[1] * x, jnp.any(c[1] * x != c[1])),
        (0, x, jnp.bool_(True)))[1], "<=5"),
    # ... but one that reads a counter, or bits shifted out of a number, stops where something
    # decided before the loop says so: data
    ("the counter against the data beside", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & (c[0] < (x[0] * 0).astype(jnp.int32) + 3),
        lambda c: (c[0] + 1, c[1] * x), (0, x))[1], "?"),
    ("a second counter against the data", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & (c[2] < (x[0] * 0).astype(jnp.int32) + 3),
        lambda c: (c[0] + 1, c[1] * x, c[2] + 1), (0, x, 0))[1], "?"),
    ("bits shifted beside", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & (c[2] > 0), lambda c: (c[0] + 1, c[1] * x, c[2] >> 1), (0, x, K - 1))[1],
     "?"),
    ("a flag set by the counter beside", lambda x: lax.while_loop(
        lambda c: (c[0] < K) & c[2], lambda c: (c[0] + 1, c[1] * x, c[0] < 2), (0, x, True))[1], "?"),
    ("not equal", _counted(lambda x: 0, lambda i: i != K, lambda i: i + 1), "5"),
    ("not equal, counting down", _counted(lambda x: K, lambda i: i != 0, lambda i: i - 1), "5"),
    ("not equal by two", _counted(lambda x: 0, lambda i: i != 2 * K, lambda i: i + 2), "?"),
    ("twice the counter", _counted(lambda x: 0, lambda i: i + i < K, lambda i: i + 1), "?"),
    ("a step that is not a literal", _counted(lambda x: 0, lambda i: i < K, lambda i: i + i + 1), "?"),
    ("the counter plus one", _counted(lambda x: 0, lambda i: i + 1 <= K, lambda i: i + 1), "5"),
    ("the bound minus the counter", _counted(lambda x: 0, lambda i: K - i > 0, lambda i: i + 1), "5"),
    ("zero below the bound minus", _counted(lambda x: 0, lambda i: 0 < K - i, lambda i: i + 1), "5"),
    ("counting down past a sum", _counted(lambda x: K, lambda i: i - 1 + 1 > 0, lambda i: i - 1), "5"),
    ("all of one test", _counted(lambda x: 0, lambda i: jnp.all(i < K), lambda i: i + 1), "5"),
    ("any of one test made a bool", _counted(lambda x: 0, lambda i: jnp.any((i < K).astype(bool)),
                                             lambda i: i + 1), "5"),
    ("all of two tests joined", _counted(lambda x: 0, lambda i: jnp.all((i < K) & (i < 3)),
                                         lambda i: i + 1), "3"),
    ("all of two tests stacked", _counted(lambda x: 0, lambda i: jnp.all(jnp.stack([i < K, i < 3])),
                                          lambda i: i + 1), "?"),
    ("a counter of shape (1,)", _counted(lambda x: jnp.zeros(1, jnp.int32), lambda i: i[0] < K,
                                         lambda i: i + 1), "5"),
    ("a counter of shape (1, 1) reshaped", _counted(lambda x: jnp.zeros((1, 1), jnp.int32),
                                                    lambda i: jnp.reshape(i, ()) < K, lambda i: i + 1), "5"),
    ("a counter of shape (1,) started from the data", _counted(
        lambda x: (x[:1] * 0).astype(jnp.int32), lambda i: i[0] < K, lambda i: i + 1), "?"),
    ("a counter of two entries", _counted(lambda x: jnp.zeros(2, jnp.int32), lambda i: i[0] < K,
                                          lambda i: i + 1), "?"),
    ("a float counter", _counted(lambda x: 0.0, lambda i: i < K, lambda i: i + 1.0), "5"),
    ("a float counter by a half", _counted(lambda x: 0.0, lambda i: i < K, lambda i: i + 0.5), "?"),
    ("a start and a step held as constants", _counted(lambda x: ZERO, lambda i: i < K, lambda i: i + ONE), "5"),
    # a bound between whole numbers, for a counter that starts whole and steps by a whole number
    ("a float counter down past a half", _counted(lambda x: jnp.float32(K), lambda i: i > 0.5,
                                                  lambda i: i - 1.0), "5"),
    ("below a bound between whole numbers", _counted(lambda x: 0, lambda i: i < K + 0.5,
                                                     lambda i: i + 1), "6"),
    ("up to and with a bound between", _counted(lambda x: 0, lambda i: i <= K - 0.5, lambda i: i + 1), "5"),
    ("not equal to a bound between", _counted(lambda x: 0, lambda i: i != K - 0.5, lambda i: i + 1), "?"),
    # a body that is a jitted function: the counter's step is read inside it
    ("a jitted body", lambda x: lax.while_loop(lambda c: c[0] < K, jax.jit(lambda c: (c[0] + 1, c[1] * x)),
                                               (0, x))[1], "5"),
    ("a jitted body passed its step", lambda x: lax.while_loop(
        lambda c: c[0] < K, lambda c: jax.jit(lambda c, s: (c[0] + s, c[1] * x))(c, 1), (0, x))[1], "5"),
    ("a jitted body stepping by the data", lambda x: lax.while_loop(
        lambda c: c[0] < K, lambda c: jax.jit(lambda c, s: (c[0] + s, c[1] * x))(
            c, (x[0] * 0).astype(jnp.int32) + 1), (0, x))[1], "?"),
]


@pytest.mark.parametrize("fn, length", [c[1:] for c in CONCRETE], ids=[c[0] for c in CONCRETE])
def test_a_loop_s_trip_count_is_read_where_it_is_known(fn, length):
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)))["loops"]
    assert loop["length"] == length and loop["recurrent"], loop


def test_a_moving_bound_is_not_read():
    def fn(x):
        body = lambda c: (c[0] + 1, c[1] - 1, c[2] * x)  # noqa: E731
        return lax.while_loop(lambda c: c[0] < c[1], body, (0, K, x))[2]
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)))["loops"]
    assert loop["length"] == "?"


SYMBOLIC = [
    ("fori over T", lambda x: lax.fori_loop(0, x.shape[0], lambda i, c: c * x[i], x[0]), "T"),
    ("a constant bound", _counted(lambda x: 0, lambda i: i < 3, lambda i: i + 1), "3"),
    ("by two below 2T", lambda x: lax.while_loop(lambda c: c[0] < 2 * x.shape[0],
                                                 lambda c: (c[0] + 2, c[1] * x[c[0] // 2]),
                                                 (0, x[0]))[1], "T"),
    ("down from T - 1", lambda x: lax.while_loop(lambda c: c[0] >= 0, lambda c: (c[0] - 1, c[1] * x[c[0]]),
                                                 (x.shape[0] - 1, x[0]))[1], "T"),
    ("by two below T", lambda x: lax.while_loop(lambda c: c[0] < x.shape[0],
                                                lambda c: (c[0] + 2, c[1] * x[c[0]]), (0, x[0]))[1],
     "floordiv(T + 1, 2)"),
]


@pytest.mark.parametrize("fn, length", [c[1:] for c in SYMBOLIC], ids=[c[0] for c in SYMBOLIC])
def test_a_hand_written_counter_over_a_symbolic_dim_is_read(fn, length):
    made = symbolic.dims(jax, {"T": (1, 64)})
    spec_ = jax.ShapeDtypeStruct(symbolic.shape(("T", 2), made), jnp.float32)
    (loop,) = program.summarize(jax.make_jaxpr(fn)(spec_), symbolic=True)["loops"]
    assert loop["length"] == length, loop


# --- the rule ------------------------------------------------------------------------------------

RULE = {"id": "no_unrolling", "parameter": "K"}


def _at(k, *lengths):
    loops = tuple(Loop(primitive="scan", length=str(n), recurrent=True) for n in lengths)
    return rules.TraceEvidence(label=f"K = {k}", shapes={}, abstract=True, values={"K": k}, program=Program(
        equations=20, primitives={"scan": 1}, largest=(), live={"scan": 1}, loops=loops))


@pytest.mark.parametrize("counts, refused", [
    ({3: [3], 7: [7], 64: [64]}, False),                   # K trips
    ({3: [2], 7: [6], 64: [63]}, False),                   # K - 1 after a peeled step
    ({3: [1], 7: [3], 64: [32]}, False),                   # K // 2 trips of two steps
    ({3: [0], 7: [0], 64: [8]}, False),                    # K // 8: eight steps to a trip
    ({3: [7, 3], 7: [7, 7], 64: [7, 64]}, False),          # a fixed loop beside the K steps
    ({3: ["<=3"], 7: ["<=7"], 64: ["<=64"]}, False),       # at most K: may stop early
    ({3: [3, "n"], 7: [7, "n"], 64: [64, "n"]}, False),    # a loop over a dim beside the K steps
    ({3: [7, "n"], 7: [7, "n"], 64: [7, "n"]}, True),      # ... is no loop over K
    ({3: [7], 7: [7], 64: [7]}, True),                     # a fixed count
    ({3: [2], 7: [3], 64: [6]}, True),                     # log2(K) trips
    ({3: [0], 7: [0], 64: [4]}, True),                     # K // 16
    ({3: [64], 7: [64], 64: [3]}, True),                   # fewer trips as K grows
    ({3: [3], 7: [7], 64: [7]}, True),                     # tracks K only at small values
    ({3: [], 7: [], 64: []}, True),                        # no loop read at all
    ({3: ["?"], 7: ["?"], 64: ["?"]}, True),               # a count that is data
    # ... beside the K steps (as much work): it could repeat the steps any number of times
    ({3: [3, "?"], 7: [7, "?"], 64: [64, "?"]}, True),
])
def test_the_trips_must_track_the_parameter(counts, refused):
    traces = [_at(k, *n) for k, n in counts.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert breach.reason == "unrolled_loop" and "tracks K" in breach.message
        assert "at K = 3" in breach.message and "at K = 64" in breach.message


def _worked(k, *loops):
    """``_at`` with loops of ``(length, work)``."""
    found = _at(k)
    made = tuple(Loop(primitive="scan", length=str(n), recurrent=True, work=w) for n, w in loops)
    return replace(found, program=replace(found.program, loops=made))


@pytest.mark.parametrize("counts, refused", [
    # the K steps (12 equations a trip) beside a light loop of K trips that computes nothing
    ({3: [(3, 12), (3, 2)], 7: [(7, 12), (7, 2)], 64: [(64, 12), (64, 2)]}, False),
    # 7 squarings (15 equations a trip) beside a light loop of K trips: the squarings are read
    ({3: [(7, 15), (3, 2)], 7: [(7, 15), (7, 2)], 64: [(7, 15), (64, 2)]}, True),
    # ... a fixed loop lighter than the K steps is left out
    ({3: [(7, 2), (3, 12)], 7: [(7, 2), (7, 12)], 64: [(7, 2), (64, 12)]}, False),
    # the heaviest loop's count is data
    ({3: [("?", 15), (3, 2)], 7: [("?", 15), (7, 2)], 64: [("?", 15), (64, 2)]}, True),
])
def test_the_trips_read_are_those_of_the_loop_doing_the_most_work(counts, refused):
    traces = [_worked(k, *loops) for k, loops in counts.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "the loop that does the most work per trip" in breach.message


def _eights(k):
    """The rest's loop (K - 1) % 8 trips, then the loop of eight steps a trip (K - 1) // 8,
    as the summary lists the two loops of ``spectral_norm_eighth_power_of_gram_k_over_8_trips``
    (tests/adversarial/round8/), each of 6 equations a trip."""
    return [((k - 1) % 8, 6), ((k - 1) // 8, 6)]


@pytest.mark.parametrize("counts, refused", [
    # eight steps a trip and the rest: the busier of the two changes with K (the rest at K = 8,
    # one trip of eight at K = 9), but the loop of eights tracks K at every value
    ({k: _eights(k) for k in (2, 8, 9, 16, 17, 64)}, False),
    ({k: _eights(k) for k in (8, 9)}, False),
    # ... neither loop tracks K: a fixed loop and log2(K) trips, as heavy
    ({3: [(7, 6), (2, 6)], 7: [(7, 6), (3, 6)], 64: [(7, 6), (6, 6)]}, True),
    # ... the loops trade places between the values: no one loop tracks K
    ({8: [(7, 6), (0, 6)], 9: [(0, 6), (1, 6)], 64: [(7, 6), (0, 6)]}, True),
    # ... the loop that tracks K does less work a trip than a fixed one beside it
    ({k: [(7, 9), ((k - 1) // 8, 6)] for k in (2, 8, 9, 64)}, True),
    # ... programs that list different loops are not read loop by loop
    ({8: [(7, 6), (0, 6)], 9: [(1, 6)], 64: [(7, 6), (7, 6)], 65: [(8, 6)]}, True),
])
def test_the_same_loop_of_the_most_work_may_track_the_parameter(counts, refused):
    traces = [_worked(k, *loops) for k, loops in counts.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "the loop that does the most work per trip" in breach.message


def test_a_loop_s_work_counts_the_equations_a_trip_needs():
    def fn(x):
        def body(i, c):
            dead = jnp.sin(x) * 3.0  # noqa: F841 - computed, never used by the trip
            return jnp.tanh(c @ x) + 1.0
        return lax.fori_loop(0, K, body, x)
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones((3, 3))))["loops"]
    # the product, the tanh and the addition; not the sine or its product, nor the counter's
    # step (nothing reads the counter)
    assert loop["work"] == 3


def test_a_loop_s_work_leaves_out_a_carry_the_output_never_needs():
    """Padding carried from trip to trip but never used after the loop computes nothing: it
    does not make the loop the heaviest."""
    def fn(x):
        def body(i, carry):
            c, pad = carry
            for _ in range(20):
                pad = jnp.sin(pad) + 1.0
            return jnp.tanh(c @ x) + 1.0, pad
        return lax.fori_loop(0, K, body, (x, x[0, 0]))[0]
    (loop,) = program.summarize(jax.make_jaxpr(fn)(jnp.ones((3, 3))))["loops"]
    assert loop["work"] == 3


def _nested(fn):
    return program.summarize(jax.make_jaxpr(fn)(jnp.ones((3, 3))))["loops"]


def _steps(c, x):
    """A step of a few equations (a product, tanh, scaling, additions)."""
    return jnp.tanh(jnp.tanh(c @ x) * 2.0 + 1.0) - 0.5


@pytest.mark.parametrize("fn", [
    # a fori_loop of K trips holding a fixed loop of 64 trips
    lambda x: lax.fori_loop(0, K, lambda i, c: lax.fori_loop(0, 64, lambda j, d: _steps(d, x), c), x),
    # ... under a lax.cond in the trip
    lambda x: lax.fori_loop(0, K, lambda i, c: lax.cond(
        i == K - 1, lambda: lax.fori_loop(0, 64, lambda j, d: _steps(d, x), c), lambda: c), x),
    # a scan of K trips holding a while loop of 64 trips
    lambda x: lax.scan(lambda c, _: (lax.while_loop(lambda s: s[0] < 64, lambda s: (s[0] + 1, _steps(s[1], x)),
                                                    (0, c))[1], None), x, None, length=K)[0],
], ids=["fori", "under a cond", "scan of a while"])
def test_a_nested_loop_is_weighed_on_its_own_and_names_the_loop_holding_it(fn):
    outer, inner = _nested(fn)
    assert outer["length"] == "5" and inner["length"] == "64"
    assert "within" not in outer and inner["within"] == 0
    # the steps are the inner loop's trip, not the outer one's
    assert inner["work"] > outer["work"]


def test_a_body_called_twice_lists_its_loops_at_each_call():
    """A jitted function holding a loop, called inside a loop and again outside: its one body
    is walked once, and its loop listed at both calls, held by the loop at the first."""
    def fn(x):
        run = jax.jit(lambda c: lax.fori_loop(0, K, lambda j, d: _steps(d, x), c))
        y = lax.fori_loop(0, K, lambda i, c: run(x + 0.0 * c), x)
        return run(x + 0.0 * y)
    loops = _nested(fn)
    assert [loop["length"] for loop in loops] == ["5"] * 3
    held = [loop.get("within") for loop in loops]
    assert sorted(held, key=str) == [0, None, None] or sorted(held, key=str) == [1, None, None]
    # the listed copies are distinct: each says where it is held
    assert len({id(loop) for loop in loops}) == 3


def test_a_loop_under_a_cond_in_its_holder_is_marked_guarded():
    from judge.run.summary import program as decode
    from judge.worker.protocol import ProtocolError

    raw = program.summarize(jax.make_jaxpr(lambda x: lax.fori_loop(0, K, lambda i, c: lax.cond(
        i == 0, lambda: lax.fori_loop(0, 2, lambda j, d: _steps(d, x), c), lambda: c), x))(jnp.ones((3, 3))))
    assert [loop.get("guarded") for loop in raw["loops"]] == [None, True]
    assert [loop.guarded for loop in decode(raw, "program").loops] == [False, True]
    # a cond outside every loop holds nothing: no mark
    top = program.summarize(jax.make_jaxpr(lambda x: lax.cond(
        x[0, 0] > 0, lambda: lax.fori_loop(0, K, lambda j, d: _steps(d, x), x), lambda: x))(jnp.ones((3, 3))))
    assert [loop.get("guarded") for loop in top["loops"]] == [None]
    raw["loops"][1]["guarded"] = 1
    with pytest.raises(ProtocolError, match=r"program.loops\[1\].guarded"):
        decode(raw, "program")


def test_more_live_loops_than_a_summary_lists_are_said():
    from judge.run.summary import program as decode
    from judge.worker.protocol import MAX_LOOPS

    def fn(x):
        for _ in range(MAX_LOOPS + 1):
            x = lax.fori_loop(0, K, lambda i, c: c * 2.0, x)
        return x
    raw = program.summarize(jax.make_jaxpr(fn)(1.0))
    assert len(raw["loops"]) == MAX_LOOPS and raw["loops_omitted"] is True
    assert decode(raw, "program").loops_omitted
    assert "loops_omitted" not in program.summarize(jax.make_jaxpr(lambda x: x * 2.0)(1.0))


def test_many_shapes_are_not_many_loops():
    """A program traced with symbolic dims lists its distinct shapes too; more of them than a
    summary lists loops says nothing of its loops."""
    from judge.worker.protocol import MAX_LOOPS

    def fn(x):
        total = lax.fori_loop(0, K, lambda i, c: c * 2.0, jnp.sum(x))
        for n in range(1, MAX_LOOPS + 8):
            total = total + jnp.sum(jnp.zeros((n,)) + total)
        return total
    raw = program.summarize(jax.make_jaxpr(fn)(jnp.ones(3)), symbolic=True)
    assert len(raw["shapes"]) > MAX_LOOPS and len(raw["loops"]) == 1
    assert "loops_omitted" not in raw


def test_loops_side_by_side_are_held_by_none():
    def fn(x):
        y = lax.fori_loop(0, 64, lambda j, d: _steps(d, x), x)
        return lax.fori_loop(0, K, lambda i, c: _steps(c, y), x)
    assert [loop.get("within") for loop in _nested(fn)] == [None, None]


def test_a_loop_named_as_holding_another_is_an_earlier_one():
    from judge.run.summary import program as decode
    from judge.worker.protocol import ProtocolError

    raw = program.summarize(jax.make_jaxpr(lambda x: lax.fori_loop(
        0, K, lambda i, c: lax.fori_loop(0, 2, lambda j, d: _steps(d, x), c), x))(jnp.ones((3, 3))))
    assert [loop.within for loop in decode(raw, "program").loops] == [None, 0]
    for bad in (1, 2, -1, "0", True):
        raw["loops"][1]["within"] = bad
        with pytest.raises(ProtocolError, match=r"program.loops\[1\].within"):
            decode(raw, "program")
    raw["loops"][1].pop("within")
    raw["loops"][0]["within"] = 0
    with pytest.raises(ProtocolError, match=r"program.loops\[0\].within"):
        decode(raw, "program")


def _nest(k, *loops, equations=20):
    """``_at`` with loops of ``(length, work, within)`` or ``(length, work, within, guarded)``."""
    found = _at(k)
    made = tuple(Loop(primitive="scan", length=str(n), recurrent=True, work=w, within=within,
                      guarded=bool(rest and rest[0]))
                 for n, w, within, *rest in loops)
    return replace(found, program=replace(found.program, loops=made, equations=equations))


@pytest.mark.parametrize("nests, refused", [
    # K trips holding a fixed loop of 64 trips that runs the steps (15 equations a trip)
    ({k: [(k, 3, None), (64, 15, 0)] for k in (3, 7, 64)}, True),
    # K // 2 trips holding a fixed loop of two steps: K trips of the steps in all
    ({k: [(k // 2, 3, None), (2, 15, 0)] for k in (3, 7, 64)}, False),
    # K // 8 trips holding eight steps: the most a trip may run
    ({k: [(k // 8, 3, None), (8, 15, 0)] for k in (3, 7, 64)}, False),
    # the fixed loop of the steps held by a fixed loop
    ({k: [(4, 3, None), (16, 15, 0)] for k in (3, 7, 64)}, True),
    # K trips holding a loop over a dim that runs the steps: the dim's loop is no loop over K
    ({k: [(k, 3, None), ("n", 15, 0)] for k in (3, 7, 64)}, False),
    # the steps' loop held by a loop whose count is data
    ({k: [("?", 3, None), (k, 15, 0)] for k in (3, 7, 64)}, True),
    # a loop of K trips held by a loop over a dim
    ({k: [("n", 3, None), (k, 15, 0)] for k in (3, 7, 64)}, False),
    # three deep: K trips, a fixed 4, a fixed 16 running the steps
    ({k: [(k, 2, None), (4, 3, 0), (16, 15, 1)] for k in (3, 7, 64)}, True),
])
def test_the_trips_of_a_nested_loop_are_counted_with_those_of_the_loops_holding_it(nests, refused):
    traces = [_nest(k, *loops) for k, loops in nests.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "the loop that does the most work per trip" in breach.message


@pytest.mark.parametrize("nests, refused", [
    # a loop of K trips padded to be the heaviest, holding a fixed loop of 64 that runs the steps
    ({k: [(k, 40, None), (64, 15, 0)] for k in (3, 7, 64)}, True),
    # ... the fixed loop under a cond at one of the K trips
    ({k: [(k, 40, None), (64, 15, 0, True)] for k in (3, 7, 64)}, True),
    # a heavy loop of K trips beside a fixed loop of 64 trips that runs the steps
    ({k: [(k, 40, None), (64, 15, None)] for k in (3, 7, 64)}, True),
    # ... beside a loop whose count is data
    ({k: [(k, 40, None), ("?", 15, None)] for k in (3, 7, 64)}, True),
    # ... holding one
    ({k: [(k, 40, None), ("?", 15, 0)] for k in (3, 7, 64)}, True),
    # the K steps beside, or holding, a fixed loop of a few trips (a norm in a loop of two)
    ({k: [(k, 40, None), (2, 15, None)] for k in (3, 7, 64)}, False),
    ({k: [(k, 40, None), (2, 5, 0)] for k in (3, 7, 64)}, False),
])
def test_no_loop_runs_more_than_steps_per_trip_trips_a_step(nests, refused):
    """Whichever loop is read as computing the output, no loop (its count times those of the
    loops holding it) runs more than ``steps_per_trip`` trips for each of the K steps, nor a
    number of trips that is data."""
    traces = [_nest(k, *loops) for k, loops in nests.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach


@pytest.mark.parametrize("nests, refused", [
    # K // 8 + 1 trips, each running under a cond a fixed loop of 24 masked steps
    ({k: [(k // 8 + 1, 3, None), (24, 15, 0, True)] for k in (3, 7, 64)}, True),
    # K // 2 trips, each running under a cond a fixed loop of two steps
    ({k: [(k // 2, 3, None), (2, 15, 0, True)] for k in (3, 7, 64)}, True),
    # ... with no cond: two steps at every trip
    ({k: [(k // 2, 3, None), (2, 15, 0)] for k in (3, 7, 64)}, False),
    # a loop of K trips held under a cond by a fixed loop of one trip
    ({k: [(1, 3, None), (k, 15, 0, True)] for k in (3, 7, 64)}, False),
    # K // 8 + 1 trips, each running a loop of at most 24 steps that may stop at once
    ({k: [(k // 8 + 1, 3, None), ("<=24", 15, 0)] for k in (3, 7, 64)}, True),
    # a loop of at most K trips (an early exit) on its own
    ({k: [(f"<={k}", 15, None)] for k in (3, 7, 64)}, False),
])
def test_a_loop_held_through_a_cond_surely_runs_only_its_own_trips(nests, refused):
    """The trips of a loop held by another through a ``cond`` are counted with the holder's
    for the most it may run, but not for how many it surely runs: the branch may run at a few
    of the holder's trips only, a fixed number whatever K."""
    traces = [_nest(k, *loops) for k, loops in nests.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "surely" in breach.message and "may stop early" in breach.message


@pytest.mark.parametrize("nests, refused", [
    # K // 8 + 1 trips, each running a fixed loop of 24 steps masked past K
    ({k: [(k // 8 + 1, 3, None), (24, 15, 0)] for k in (3, 7, 64)}, True),
    # ... the 24 split between a fixed loop of 3 holding a fixed loop of 8
    ({k: [(k // 8 + 1, 3, None), (3, 4, 0), (8, 15, 1)] for k in (3, 7, 64)}, True),
    # K // 4 + 1 trips of a fixed loop of 16
    ({k: [(k // 4 + 1, 3, None), (16, 15, 0)] for k in (3, 7, 64)}, True),
    # K // 8 + 1 trips of a fixed loop of 8 masked past K: one trip of padding at most
    ({k: [(k // 8 + 1, 3, None), (8, 15, 0)] for k in (3, 7, 64)}, False),
    # K trips, and K + 1 of a loop that runs a first step beside the others
    ({k: [(k, 15, None)] for k in (3, 7, 64)}, False),
    ({k: [(k + 1, 15, None)] for k in (3, 7, 64)}, False),
    # a loop no other loop holds, of 2K trips: a half step to a trip (v, then u)
    ({k: [(2 * k, 15, None)] for k in (3, 7, 64)}, False),
    ({k: [(2 * k + 8, 15, None)] for k in (3, 7, 64)}, False),
    ({k: [(2 * k + 9, 15, None)] for k in (3, 7, 64)}, True),
    # ... 2K trips in all of a loop that another holds: K // 8 + 1 trips of a fixed 16
    ({k: [(k // 8 + 1, 3, None), (16, 15, 0)] for k in (3, 7, 64)}, True),
    # K trips (or K - 1 after a first step) each holding a fixed loop of its two half steps
    ({k: [(k, 3, None), (2, 15, 0)] for k in (3, 7, 64)}, False),
    ({k: [(k - 1, 3, None), (2, 15, 0)] for k in (3, 7, 64)}, False),
    # ... of three trips: more than a step's two halves
    ({k: [(k, 3, None), (3, 15, 0)] for k in (3, 7, 64)}, True),
    # K // 2 trips, or K - 2, each holding a fixed loop of four or two
    ({k: [(k // 2, 3, None), (4, 15, 0)] for k in (3, 7, 64)}, True),
    ({k: [(k - 2, 3, None), (2, 15, 0)] for k in (3, 7, 64)}, True),
    # the holder of K trips under a cond at one of a fixed loop's trips: not surely K
    ({k: [(4, 2, None), (k, 3, 0, True), (2, 15, 1)] for k in (3, 7, 64)}, True),
])
def test_the_steps_run_at_most_k_trips_and_one_trip_of_padding(nests, refused):
    """The loop that does the most work per trip, its count times those of the loops holding
    it, runs at most K trips and one trip's padding of ``steps_per_trip`` steps masked past K:
    a fixed loop of more steps than a trip may hold, run at each of a few trips, is refused
    however few trips hold it. A loop that no other loop holds may run 2K trips and the
    padding: a half step to a trip holds no fixed chunk of steps."""
    traces = [_nest(k, *loops) for k, loops in nests.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "one trip of at most 8 steps masked past K" in breach.message


def test_a_body_s_loop_listed_at_two_calls_is_read_where_it_runs_the_most():
    """Two steps in a jitted fixed loop of two, called at each of K // 2 - 1 trips and once
    after them: the loop's two listings weigh the same, and the one held by the loop of
    K // 2 - 1 trips is the one whose trips are read."""
    traces = [_nest(k, (2, 15, None), (k // 2 - 1, 3, None), (2, 15, 1)) for k in (3, 7, 64)]
    assert no_unrolling.check_traces(RULE, traces, None) is None


def test_a_program_with_more_loops_than_listed_is_refused():
    traces = [replace(t, program=replace(t.program, loops_omitted=True)) for t in
              (_at(3, 3), _at(7, 7), _at(64, 64))]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert breach is not None and "more live loops than the judge reads" in breach.message


def test_a_fixed_loop_of_the_steps_in_each_of_k_trips_is_more_than_a_trip_a_step():
    traces = [_nest(k, (k, 3, None), (64, 15, 0)) for k in (3, 7, 64)]
    message = no_unrolling.check_traces(RULE, traces, None).message
    assert "192 times at K = 3, 448 at K = 7, 4,096 at K = 64" in message
    assert "more than 8 trips for each of the K steps" in message


@pytest.mark.parametrize("per, equations, refused", [
    # K // 2 trips of two steps of 15 equations (31 a trip, with the counter's step)
    (2, {3: 40, 7: 40, 64: 40}, False),
    (2, {3: 55, 7: 55, 64: 40}, False),       # the odd step written out after the loop: 15 more
    (2, {3: 63, 7: 63, 64: 40}, False),       # ... costing a few equations more than in a trip
    (2, {3: 64, 7: 40, 64: 40}, True),        # more than a step and a half
    (2, {3: 71, 7: 40, 64: 40}, True),        # two steps
    (2, {3: 40, 7: 100, 64: 955}, True),      # a step written out for each value of K
    # K // 8 trips of eight steps (121 a trip), the K % 8 left written out: up to 7 steps more
    (8, {3: 40, 7: 40, 64: 40}, False),
    (8, {3: 85, 7: 145, 64: 40}, True),
])
def test_programs_at_different_values_may_differ_by_a_step_and_a_half(per, equations, refused):
    traces = [_nest(k, (k // per, 15 * per + 1, None), equations=n) for k, n in equations.items()]
    breach = no_unrolling.check_traces(RULE, traces, None)
    assert (breach is not None) is refused, breach
    if refused:
        assert "grows with K" in breach.message
    # on a case: its program and those at the values drawn for the grade
    case = replace(_at(5, 5), label="at this case's shapes", abstract=False, related=tuple(traces))
    breach = no_unrolling.check(RULE, case, None)
    assert (breach is not None) is refused, breach


def test_programs_with_no_loop_of_the_steps_must_agree_exactly():
    """Without a loop computing the output there is no step to allow: a program unrolled in
    Python differs by one step between neighbouring values of K."""
    traces = [_nest(k, equations=n) for k, n in ((5, 40), (6, 41))]
    assert "grows with K" in no_unrolling.check_traces(RULE, traces, None).message
    light = [_nest(k, (k, 1, None), equations=n) for k, n in ((5, 40), (6, 55))]
    assert "grows with K" in no_unrolling.check_traces(RULE, light, None).message


def test_steps_per_trip_sets_how_many_steps_a_trip_may_run():
    halves = [_at(3, 1), _at(7, 3), _at(64, 32)]
    assert no_unrolling.check_traces(RULE, halves, None) is None
    strict = {**RULE, "steps_per_trip": 1}
    assert "at most 1 of the K steps" in no_unrolling.check_traces(strict, halves, None).message
    assert no_unrolling.check_traces(strict, [_at(3, 2), _at(7, 6), _at(64, 63)], None) is None


def test_on_a_case_the_trips_at_its_k_and_another_are_compared():
    case = replace(_at(5, 5), label="at this case's shapes", abstract=False)
    assert no_unrolling.check(RULE, replace(case, related=(_at(5, 5), _at(40, 40))), None) is None
    # K // 2 at neighbouring values can be the same count: a step short of a trip is allowed
    assert no_unrolling.check(RULE, replace(case, related=(_at(4, 2), _at(5, 2))), None) is None
    fixed = no_unrolling.check(RULE, replace(case, related=(_at(5, 7), _at(40, 7))), None)
    assert fixed is not None and "7 times at K = 5, 7 at K = 40" in fixed.message


def test_the_rule_traces_at_the_top_of_the_range_too(tmp_path):
    problem = _load(tmp_path, _with_K(rules=[dict(RULE)]))
    assert [t.values["K"] for t in no_unrolling.traces(problem.rules[0], problem)] == [3, 7, 64]
    assert "grows with K (at most 8 steps to a trip)" in rules.describe(problem.rules[0])


@pytest.mark.parametrize("rule, where, says", [
    ({"id": "no_unrolling", "dim": "d", "steps_per_trip": 2}, ["rules", 0, "steps_per_trip"],
     "only a rule keyed on a `parameter`"),
    ({"id": "no_unrolling", "parameter": "K", "steps_per_trip": 0}, ["rules", 0, "steps_per_trip"], ""),
    ({"id": "no_unrolling", "parameter": "K", "steps_per_trip": "two"}, ["rules", 0, "steps_per_trip"], ""),
])
def test_steps_per_trip_errors_name_the_file_line_and_key(tmp_path, rule, where, says):
    with pytest.raises(SpecError, match=says or None) as info:
        _load(tmp_path, _with_K(rules=[rule]))
    error = info.value
    assert list(error.steps[:len(where)]) == where
    assert error.path.endswith("mini.yaml") and error.line is not None


def test_a_case_s_program_traced_with_symbols_is_compared_with_the_traces_beside_it():
    """The program a case ran, traced with symbolic dims (so never run as such: ``abstract``), is
    compared with the programs at its own K and at the drawn values of K."""
    case = replace(_at(5, 5), label="traced with m, n symbolic")
    assert no_unrolling.check(RULE, replace(case, related=(_at(5, 5), _at(40, 40))), None) is None
    grows = replace(case, related=(replace(_at(5, 5), program=replace(_at(5, 5).program, equations=90)),
                                   _at(40, 40)))
    breach = no_unrolling.check(RULE, grows, None)
    assert breach is not None and "90 equations at K = 5 and 20 at K = 40" in breach.message
    assert no_unrolling.check(RULE, case, None) is None  # nothing beside it: nothing to compare


def _ran(k, *lengths, equations=20, errors=None):
    """The program a case at K = ``k`` ran, traced with symbolic dims, as its worker reported
    it (``errors``: its probes' errors)."""
    from judge.run.boundary import CaseReport, Probes
    report = CaseReport(index=0, time_s=0.0, stdout="", stderr="",
                        probes=Probes(values={}, errors=errors or {}))
    found = _at(k, *lengths)
    return replace(found, label="traced with m, n symbolic", symbols={"m": (1, 16)}, report=report,
                   program=replace(found.program, equations=equations))


def test_a_case_s_own_program_is_compared_where_nothing_beside_it_is_at_its_k():
    """Where the traces beside a case are only at the values drawn for the grade, the program
    the case's worker traced and ran stands for the case's own K: its equations and its trips
    are compared with theirs."""
    assert no_unrolling.check(RULE, replace(_ran(5, 5), related=(_at(40, 40),)), None) is None
    grows = no_unrolling.check(RULE, replace(_ran(5, 5, equations=90), related=(_at(40, 40), _at(9, 9))), None)
    assert grows is not None and "90 equations at K = 5 and 20 at K = 40 and 20 at K = 9" in grows.message
    fixed = no_unrolling.check(RULE, replace(_ran(5, 7), related=(_at(40, 7),)), None)
    assert fixed is not None and "7 times at K = 5, 7 at K = 40" in fixed.message
    # traced beside it at its own K too (the case's program not reported as traced with
    # symbols): that trace is the one compared
    beside = replace(_ran(5, 5, equations=90), related=(_at(5, 5), _at(40, 40)))
    assert no_unrolling.check(RULE, beside, None) is None
    unsymbolic = replace(_ran(5, 5, equations=90), symbols={}, related=(_at(40, 40),))
    assert no_unrolling.check(RULE, unsymbolic, None) is None


def test_a_case_s_program_without_a_failed_probe_is_not_compared():
    """A probe that failed can leave its derivative out of the program the case ran, which is
    then shorter than the traces beside it; that case fails on the probe anyway."""
    from judge.run.boundary import ErrorReport
    failed = ErrorReport(kind="exception", type="TypeError", message="no", line=None, source=None)
    case = replace(_ran(5, 5, equations=12, errors={"jvp": failed}), related=(_at(40, 40),))
    assert no_unrolling.check(RULE, case, None) is None


def _grade_attack(name):
    from judge.grade import grading
    from judge.problem import spec
    from tests.helpers import ROOT

    problem = spec.load(ROOT / "problems" / "spectral_norm.yaml")
    path = ROOT / "tests" / "adversarial" / "structural" / f"{name}.py"
    return grading.grade(problem, path, hints=False, source_gate=False)  # every case


def test_steps_unrolled_only_where_the_dims_are_symbols_are_refused():
    """Loops at the rule's own values of K (concrete shapes), unrolls small K in the cases'
    programs: whichever side of 20 the drawn values fall, some case compares a K on the other
    side with them."""
    result = _grade_attack("spectral_norm_unrolled_below_21_symbolic_only")
    assert result.verdict.value == "RJ" and result.reason == "unrolled_loop", result.message


@pytest.mark.parametrize("apart", [False, True], ids=["one_worker", "workers_apart"])
def test_steps_unrolled_only_in_the_cases_programs_are_refused(apart, monkeypatch):
    """Loops where it takes itself to be traced for the rules, unrolls small K in the cases'
    programs: the program each case ran is compared with the programs at the values drawn for
    the grade, traced the way the case's worker traces its own; whether the traces come first
    in the cases' worker or in a worker of their own (``traces.fold``)."""
    from judge.grade import traces

    if apart:
        monkeypatch.setattr(traces, "fold", lambda base, tracing: None)
    result = _grade_attack("spectral_norm_honest_only_when_traced_alone")
    assert result.verdict.value == "RJ" and result.reason == "unrolled_loop", result.message
