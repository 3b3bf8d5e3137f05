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
