"""``no_unrolling`` keyed on a dim refuses a loop padded to a fixed count over it: a ``scan`` or
``while`` whose count is a number in the program traced with the dim as a symbol, whose body
indexes an axis of the dim's extent by its counter (``judge.worker.loop_index``,
``judge.rules.fixed_loops``). The programs here are traced in this process (test code, not a
submission); the submissions graded whole are in ``tests/adversarial/round12/``
(``batched_attention_fori_loop_of_eight_examples_clamped.py``,
``batched_attention_fixed_*``)."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from judge import rules
from judge.rules import no_unrolling
from judge.run.summary import program as decode
from judge.worker import program, symbolic

RULE = {"id": "no_unrolling", "dim": "b", "max_equations": 200}


def _summary(fn, d=3):
    made = symbolic.dims(jax, {"b": (1, 8), "T": (1, 64)})
    x = jax.ShapeDtypeStruct(symbolic.shape(("b", d), made), jnp.float32)
    return decode(program.summarize(jax.make_jaxpr(fn)(x), symbolic=True), "program")


def _breach(fn, dim="b"):
    trace = rules.TraceEvidence(label="traced with b symbolic", shapes={}, abstract=True,
                                values={}, program=_summary(fn))
    return no_unrolling.check({**RULE, "dim": dim}, trace, None)


def _row(x, i):
    return jnp.tanh(x[0] * 0 + lax.dynamic_index_in_dim(x, i, keepdims=False))


def _fori(count, pick):
    """A ``fori_loop`` of ``count`` trips, each computing one row ``pick(x, i)`` and writing it
    where it belongs with ``where``."""
    def fn(x):
        rows = jnp.arange(x.shape[0])[:, None]
        return lax.fori_loop(0, count, lambda i, out: jnp.where(rows == i, pick(x, i)[None], out),
                             jnp.zeros_like(x))
    return fn


def _take(x, i):
    return jnp.tanh(jnp.take(x, i, axis=0, mode="clip"))


def _slice(x, i):
    return jnp.tanh(lax.dynamic_slice(x, (jnp.minimum(i, x.shape[0] - 1), 0), (1, x.shape[1]))[0])


def _one_hot(x, i):
    return jnp.tanh(jnp.sum(jax.nn.one_hot(i, x.shape[0])[:, None] * x, axis=0))


def _mask_product(x, i):
    rows = jnp.arange(x.shape[0])
    return jnp.tanh(((rows == i).astype(x.dtype) @ x))


def _while_constant(x):
    def body(c):
        i, out = c
        one = _row(x, jnp.minimum(i, x.shape[0] - 1))
        return i + 1, out.at[i].set(one, mode="drop")
    return lax.while_loop(lambda c: c[0] < 8, body, (0, jnp.zeros_like(x)))[1]


def _scan_arange(x):
    def step(out, i):
        return out.at[i].set(jnp.tanh(jnp.take(x, i, axis=0, mode="clip")), mode="drop"), None
    return lax.scan(step, jnp.zeros_like(x), jnp.arange(8))[0]


def _counter_carried_as_float(x):
    """The row picked by a whole number made of a float carry."""
    def step(c, _):
        t, out = c
        i = t.astype(jnp.int32)
        return (t + 1.0, out + jnp.where(jnp.arange(x.shape[0])[:, None] == i, jnp.tanh(x), 0.0)), None
    return lax.scan(step, (jnp.float32(0), jnp.zeros_like(x)), None, length=8)[0][1]


ATTACKS = [
    ("fori 8, dynamic_index_in_dim", _fori(8, _row)),
    ("fori 16, dynamic_index_in_dim", _fori(16, _row)),
    ("fori 9, take", _fori(9, _take)),
    ("fori 8, dynamic_slice", _fori(8, _slice)),
    ("fori 8, one_hot product", _fori(8, _one_hot)),
    ("fori 8, mask product", _fori(8, _mask_product)),
    ("while with a constant bound, .at[i].set", _while_constant),
    ("scan over arange(8), take", _scan_arange),
    ("a counter carried as a float", _counter_carried_as_float),
    ("inside jit", jax.jit(_fori(8, _take))),
    ("behind a cond on the counter", _fori(8, lambda x, i: lax.cond(i < 4, _take, _row, x, i))),
]


@pytest.mark.parametrize("fn", [a[1] for a in ATTACKS], ids=[a[0] for a in ATTACKS])
def test_a_fixed_loop_over_the_rows_is_refused(fn):
    loops = _summary(fn).loops
    assert any("b" in lp.steps_over and lp.length.lstrip("<=").isdigit() for lp in loops), loops
    breach = _breach(fn)
    assert breach is not None and breach.reason == "unrolled_loop"
    assert "padded to a fixed count" in breach.message
    assert _breach(fn, dim="T") is None  # keyed on another dim: not this rule's business


def _newton(x):
    """A fixed number of refinement steps on the whole batch: no row picked by the counter."""
    return lax.fori_loop(0, 8, lambda i, y: 0.5 * (y + x / y), jnp.ones_like(x))


def _map(x):
    return lax.map(jnp.tanh, x)


def _scan_rows(x):
    return lax.scan(lambda c, row: (c + row, jnp.tanh(row)), jnp.zeros(x.shape[1]), x)[1]


def _fori_over_b(x):
    rows = jnp.arange(x.shape[0])[:, None]
    return lax.fori_loop(0, x.shape[0], lambda i, out: jnp.where(rows == i, _take(x, i)[None], out),
                         jnp.zeros_like(x))


def _fixed_over_features(x):
    """A fixed loop over the 3 features, each column of the whole batch at a trip."""
    return lax.fori_loop(0, 3, lambda j, out: out + jnp.tanh(lax.dynamic_index_in_dim(x, j, 1)),
                         jnp.zeros((x.shape[0], 1)))


def _bisection(x):
    """A fixed number of halvings of a threshold, compared with every entry (a float)."""
    def step(_, c):
        lo, hi = c
        mid = 0.5 * (lo + hi)
        above = jnp.mean(x > mid)
        return jnp.where(above > 0.5, mid, lo), jnp.where(above > 0.5, hi, mid)
    return lax.fori_loop(0, 20, step, (jnp.float32(-1), jnp.float32(1)))[0] + x


HONEST = [
    ("refinement steps on the whole batch", _newton),
    ("lax.map over the rows", _map),
    ("scan over the rows", _scan_rows),
    ("fori over b itself", _fori_over_b),
    ("fixed loop over the features", _fixed_over_features),
    ("bisection of a threshold", _bisection),
]


@pytest.mark.parametrize("fn", [h[1] for h in HONEST], ids=[h[0] for h in HONEST])
def test_loops_that_do_not_walk_the_rows_at_a_fixed_count_pass(fn):
    assert _breach(fn) is None, _summary(fn).loops


def test_a_fixed_loop_inside_a_loop_over_chunks_of_the_dim_passes():
    """A fixed loop of 4 inside a loop over the chunks of T (its count reads T) walks one chunk:
    the loop holding it grows with T."""
    def fn(x):
        def chunk(c, start):
            return lax.fori_loop(0, 4, lambda j, acc: acc + jnp.take(x, start + j, axis=0, mode="clip"),
                                 c), None
        return lax.scan(chunk, jnp.zeros(x.shape[1]), 4 * jnp.arange(x.shape[0] // 4))[0]
    loops = _summary(fn).loops
    assert [lp.length for lp in loops][1] == "4" and "b" in loops[1].steps_over
    assert _breach(fn) is None


def test_a_summary_s_dim_names_are_checked():
    raw = {**program.summarize(jax.make_jaxpr(_fori(8, _take))(jnp.ones((3, 2))), symbolic=True)}
    raw["loops"][0]["steps_over"] = ["b; rm"]
    with pytest.raises(Exception, match="identifier"):
        decode(raw, "program")


def test_a_counter_broadcast_into_a_jitted_comparison_is_still_the_counter():
    """The counter broadcast to the rows' shape and compared with them inside a ``jit``."""
    pick = jax.jit(lambda rows, i, x: jnp.where(rows == i, jnp.tanh(x), 0.0))

    def fn(x):
        rows = jnp.arange(x.shape[0])[:, None] + jnp.zeros(x.shape, jnp.int32)
        return lax.fori_loop(0, 8, lambda i, out: out + pick(rows, jnp.broadcast_to(i, x.shape), x),
                             jnp.zeros_like(x))
    assert _breach(fn) is not None


# --- a loop over the rows written out in Python (``judge.worker.picks``) ------------------------

def _rows_eq(x):
    """Eight steps, each selecting one row of batched results by a comparison with its index."""
    rows = jnp.arange(x.shape[0])
    sums = jnp.sum(jnp.tanh(x), axis=1)
    return sum(jnp.sum(jnp.where(rows == i, sums, 0.0)) for i in range(8))


def _rows_indexed(x):
    """``x[i]`` for i in range(8) (JAX clamps an index past the end)."""
    return jnp.stack([jnp.tanh(x[i]) for i in range(8)]).sum(0)


def _chunks_taken(x):
    """Four chunks of 2 rows, gathered at fixed indices past the end filled with zeros."""
    total = jnp.zeros(x.shape[1])
    for k in range(4):
        idx = jnp.arange(2) + 2 * k
        total = total + jnp.tanh(jnp.take(x, idx, axis=0, mode="fill", fill_value=0.0)).sum(0)
    return total


def _rows_set(x):
    """The output built a row at a time with ``.at[i].set``, for i in range(8)."""
    out = jnp.zeros_like(x)
    for i in range(8):
        out = out.at[i].set(jnp.tanh(jnp.take(x, i, axis=0, mode="clip")), mode="drop")
    return out


def _one_hots(x):
    """Rows picked by one-hot products, ``one_hot(i, b) @ x``."""
    return sum(jnp.tanh(jax.nn.one_hot(i, x.shape[0]) @ x) for i in range(8))


def _prefixes(x):
    """Prefixes of 2, 4, 6 and 8 rows masked with ``rows < k``."""
    rows = jnp.arange(x.shape[0])[:, None]
    return sum(jnp.sum(jnp.where(rows < k, jnp.tanh(x), 0.0)) for k in (2, 4, 6, 8))


def _rows_clamped(x):
    """``x[min(i, b - 1)]`` for i in range(8): the index read from the batch's extent."""
    return sum(jnp.tanh(x[jnp.minimum(i, x.shape[0] - 1)]) for i in range(8))


def _rows_from_the_end(x):
    """``x[-1 - i]`` for i in range(8)."""
    return sum(jnp.tanh(x[-1 - i]) for i in range(8))


def _rows_taken_clipped(x):
    """``jnp.take(x, i, mode="clip")`` for i in range(8)."""
    return sum(jnp.tanh(jnp.take(x, i, axis=0, mode="clip")) for i in range(8))


def _float_rows(x):
    """Rows as floats compared with float indices, ``rows == 3.0``."""
    rows = jnp.arange(x.shape[0]).astype(jnp.float32)[:, None] * 1.0
    return sum(jnp.sum(jnp.where(rows == float(i), jnp.tanh(x), 0.0)) for i in range(8))


WRITTEN_OUT = [
    ("where(rows == i) for i in range(8)", _rows_eq),
    ("float rows == float(i)", _float_rows),
    ("take(x, i, mode='clip') for i in range(8)", _rows_taken_clipped),
    ("x[i] for i in range(8)", _rows_indexed),
    ("x[min(i, b - 1)] for i in range(8)", _rows_clamped),
    ("x[-1 - i] for i in range(8)", _rows_from_the_end),
    ("four chunks taken at fixed indices", _chunks_taken),
    (".at[i].set for i in range(8)", _rows_set),
    ("one_hot(i, b) products", _one_hots),
    ("prefixes by rows < k", _prefixes),
    ("inside jit", jax.jit(_rows_eq)),
]


@pytest.mark.parametrize("fn", [a[1] for a in WRITTEN_OUT], ids=[a[0] for a in WRITTEN_OUT])
def test_a_fixed_loop_over_the_rows_written_out_is_refused(fn):
    summary = _summary(fn)
    assert not summary.loops and summary.picks["b"].places >= 3, summary.picks
    breach = _breach(fn)
    assert breach is not None and breach.reason == "unrolled_loop"
    assert "different rows or chunks of b at indices written in it" in breach.message
    assert _breach(fn, dim="T") is None


def _first_as_carry(x):
    """``x[0]`` as a scan's first carry, the rest scanned."""
    return lax.scan(lambda c, row: (0.5 * c + row, c), x[0], x[1:])[1]


def _first_and_rest(x):
    """The first row apart and the rest, ``x[:1]`` and ``x[1:]``, joined again."""
    return jnp.concatenate([jnp.tanh(x[:1]), x[1:] - x[:-1]])


def _heads(x):
    """A fixed number of heads along the features: the columns split in 3, a loop over them."""
    return jnp.concatenate([jnp.tanh(part) for part in jnp.split(x, 3, axis=1)], axis=1)


def _padded(x):
    """The rows padded with a row before and three after, and cut back."""
    return jnp.tanh(jnp.pad(x, ((1, 3), (0, 0))))[1:x.shape[0] + 1]


def _masked_by_lengths(x):
    """A mask of each row against data (``rows < n``), and the first row's loss weighed apart."""
    rows = jnp.arange(x.shape[0])
    n = jnp.sum(x[:, 0] > 0)
    keep = (rows < n)[:, None]
    return jnp.where(keep, jnp.tanh(x), 0.0) + jnp.where(rows[:, None] == 0, x, 0.0)


def _last_row(x):
    """The last row by ``x[-1]`` and the first by ``x[0]``."""
    return jnp.tanh(x[-1]) + x[0]


HONEST_WRITTEN = [
    ("x[0] as a scan's first carry", _first_as_carry),
    ("x[:1] and the rest", _first_and_rest),
    ("a fixed number of heads along the features", _heads),
    ("padded and cut back", _padded),
    ("masked by lengths, the first row apart", _masked_by_lengths),
    ("first and last rows", _last_row),
]


@pytest.mark.parametrize("fn", [h[1] for h in HONEST_WRITTEN], ids=[h[0] for h in HONEST_WRITTEN])
def test_a_batched_program_that_picks_a_row_or_two_passes(fn):
    assert _breach(fn) is None, _summary(fn).picks

    def loss(x):
        return jnp.sum(fn(x) ** 2)
    # with its derivative traced in, as the judge's probes trace it
    assert _breach(lambda x: (fn(x), jax.grad(loss)(x))) is None, _summary(lambda x: jax.grad(loss)(x)).picks


def test_a_summary_s_picks_are_checked():
    made = symbolic.dims(jax, {"b": (1, 8)})
    x = jax.ShapeDtypeStruct(symbolic.shape(("b", 3), made), jnp.float32)
    raw = program.summarize(jax.make_jaxpr(_rows_eq)(x), symbolic=True)
    assert raw["picks"] == [{"dim": "b", "places": 8}]
    with pytest.raises(Exception, match="identifier"):
        decode({**raw, "picks": [{"dim": "b; rm", "places": 8}]}, "program")
    with pytest.raises(Exception):
        decode({**raw, "picks": [{"dim": "b", "places": -1}]}, "program")


# --- the same, at indices disguised as data (``judge.worker.shifted``) ----------------------------

def _zero(x):
    return jnp.sum(x > jnp.inf).astype(jnp.int32)  # 0, but read from the input


def _disguised_take(x):
    zero = _zero(x)
    return sum(jnp.tanh(jnp.take(x, i + zero, axis=0, mode="clip")) for i in range(8))


def _disguised_indexed(x):
    """``x[i + zero]`` (a ``dynamic_slice``, its negative index moved by the extent)."""
    zero = _zero(x)
    return jnp.stack([jnp.tanh(x[i + zero]) for i in range(8)]).sum(0)


def _disguised_clamped(x):
    zero = _zero(x)
    return sum(jnp.tanh(x[jnp.minimum(i + zero, x.shape[0] - 1)]) for i in range(8))


def _disguised_rows_eq(x):
    zero = _zero(x)
    rows = jnp.arange(x.shape[0])[:, None]
    return sum(jnp.where(rows == zero + i, jnp.tanh(x), 0.0) for i in range(8))


def _disguised_set(x):
    zero = _zero(x)
    out = jnp.zeros_like(x)
    for i in range(8):
        out = out.at[zero + i].set(jnp.tanh(jnp.take(x, zero + i, axis=0, mode="fill", fill_value=0.0)),
                                   mode="drop")
    return out


def _disguised_one_hots(x):
    zero = _zero(x)
    return sum(jnp.tanh(jax.nn.one_hot(zero + i, x.shape[0]) @ x) for i in range(8))


def _disguised_in_jit(x):
    """The zero made inside a jitted helper, the rows taken by another."""
    zero = jax.jit(_zero)(x)
    take = jax.jit(lambda x, i: jnp.take(x, i, axis=0, mode="clip"))
    return sum(jnp.tanh(take(x, zero + i)) for i in range(8))


def _disguised_chunks(x):
    """Four chunks of 2 rows at ``zero + arange(2) + 2 * k``."""
    zero = _zero(x)
    return sum(jnp.tanh(jnp.take(x, zero + jnp.arange(2) + 2 * k, axis=0, mode="fill",
                                 fill_value=0.0)).sum(0) for k in range(4))


DISGUISED = [
    ("take(x, i + zero, mode='clip')", _disguised_take),
    ("x[i + zero]", _disguised_indexed),
    ("x[min(i + zero, b - 1)]", _disguised_clamped),
    ("where(rows == zero + i)", _disguised_rows_eq),
    (".at[zero + i].set", _disguised_set),
    ("one_hot(zero + i, b) products", _disguised_one_hots),
    ("zero and take inside jit", _disguised_in_jit),
    ("four chunks at zero + 2k", _disguised_chunks),
]


@pytest.mark.parametrize("fn", [a[1] for a in DISGUISED], ids=[a[0] for a in DISGUISED])
def test_a_loop_written_out_at_indices_disguised_as_data_is_refused(fn):
    """Each step's index is one unknown read from the input plus its own literal: the steps
    still pick places a fixed number of rows apart."""
    summary = _summary(fn)
    assert summary.picks["b"].places >= 3, summary.picks
    breach = _breach(fn)
    assert breach is not None and breach.reason == "unrolled_loop"
    assert _breach(fn, dim="T") is None


@pytest.mark.xfail(strict=True, reason="known hole: each step's index its own unknown (the literal "
                                       "read into the data term) shares no base with the others")
def test_a_loop_written_out_at_indices_each_its_own_unknown_is_refused():
    def fn(x):
        return sum(jnp.tanh(jnp.take(x, jnp.sum(x > jnp.inf + i).astype(jnp.int32) + i, axis=0,
                                     mode="clip")) for i in range(8))
    assert _breach(fn) is not None


def _peak(x):
    """The row of the largest first feature, ``x[argmax]``, its derivative traced in."""
    i = jnp.argmax(x[:, 0])
    return jnp.tanh(x[i]) + jnp.take(x, i, axis=0)


def _labels(x):
    """Entries at data indices, one a row (``take_along_axis``), and rows at data indices."""
    labels = jnp.argmax(x, axis=1)
    picked = jnp.take_along_axis(x, labels[:, None], axis=1)
    order = jnp.argsort(x[:, 0])
    return jnp.tanh(picked) + x[order] + x[labels]


def _stencil_in_a_loop(x):
    """Rows ``i - 1``, ``i``, ``i + 1`` at each trip of a loop over the rows."""
    def step(out, i):
        around = (jnp.take(x, i - 1, axis=0, mode="clip") + jnp.take(x, i, axis=0, mode="clip")
                  + jnp.take(x, i + 1, axis=0, mode="clip"))
        return out.at[i].set(jnp.tanh(around)), None
    return lax.scan(step, jnp.zeros_like(x), jnp.arange(x.shape[0]))[0]


def _last_valid(x):
    """The last row a mask keeps and the first, ``x[n - 1]`` and ``x[0]``."""
    n = jnp.sum(x[:, 0] > 0)
    return jnp.tanh(x[jnp.maximum(n - 1, 0)]) + x[0]


def _peak_after_a_loop(x):
    """A data index found by a fixed loop of halvings, then one row picked at it."""
    lo = lax.fori_loop(0, 4, lambda _, lo: jnp.where(jnp.sum(x[:, 0] > lo) > 1, lo + 1, lo), 0)
    return jnp.tanh(jnp.take(x, lo, axis=0, mode="clip"))


HONEST_DATA = [
    ("x[argmax] and take at it", _peak),
    ("take_along_axis, rows at data indices", _labels),
    ("a stencil in a loop over the rows", _stencil_in_a_loop),
    ("the last valid row and the first", _last_valid),
    ("a row at an index a loop found", _peak_after_a_loop),
]


@pytest.mark.parametrize("fn", [h[1] for h in HONEST_DATA], ids=[h[0] for h in HONEST_DATA])
def test_rows_picked_at_data_indices_pass(fn):
    assert _breach(fn) is None, _summary(fn).picks

    def loss(x):
        return jnp.sum(fn(x) ** 2)
    assert _breach(lambda x: (fn(x), jax.grad(loss)(x))) is None, _summary(lambda x: jax.grad(loss)(x)).picks
