"""Which returned values a type wider than float16 bent out of the data (``judge.worker.bent``,
the ``straight`` option of ``primitive_dtypes``): casts of float16 values, their sums and their
scalings, finiteness tests of those and choices by them stay straight; ``abs``, ``max``, a
rounding, a comparison, a choice by a data flag and all that is computed from them are bent."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from judge.run.summary import program as decode
from judge.worker import program

F16, F32 = jnp.float16, jnp.float32
A = jnp.linspace(-1.5, 1.5, 6, dtype=F32)
B = jnp.linspace(0.25, 2.0, 6, dtype=F32)
SCALE = jnp.float32(8.0)


def _bent(fn, *args) -> int:
    closed = jax.make_jaxpr(fn)(*args)
    return decode(program.summarize(closed, outputs=len(closed.jaxpr.outvars)), "program").bent_outputs


def _grad16(a, b):
    return (a.astype(F16) * b.astype(F16)).astype(F32)


def _tent_square(t):
    acc, g = t, t
    for s in range(1, 12):
        g = 1.0 - jnp.abs(2.0 * g - 1.0)
        acc = acc - g * (0.25 ** s)
    return acc


def _by_comparisons(a, b):
    """a * b for a in [0, 2): a's binary digits by comparisons, each choosing b shifted."""
    rest, out = a, jnp.zeros_like(b)
    for e in range(0, -12, -1):
        on = rest >= 2.0 ** e
        out = out + jnp.where(on, b * 2.0 ** e, 0.0)
        rest = rest - jnp.where(on, 2.0 ** e, 0.0)
    return out


def _by_int_bits(a, b):
    """a * b for a in [0, 4) from a's bits in fixed point, read by integer shifts and masks."""
    q = (a * 2 ** 12).astype(jnp.int32)
    out = jnp.zeros_like(b)
    for k in range(14):
        out = out + jnp.where(((q >> k) & 1) == 1, b * 2.0 ** (k - 12), 0.0)
    return out


STRAIGHT = {
    "unscale and update": lambda a, b, s: a - 0.1 * (_grad16(a, b) / s),
    "reciprocal of the scale": lambda a, b, s: a + (-0.1) * _grad16(a, b) * (1.0 / s),
    "sum of two leaves": lambda a, b, s: _grad16(a, b) + _grad16(b, a),
    "chosen by finite": lambda a, b, s: jnp.where(jnp.isfinite(_grad16(a, b)).all(), a - _grad16(a, b) / s, a),
    "nan_to_num": lambda a, b, s: a - jnp.nan_to_num(_grad16(a, b) / s),
    "isnan or isinf zeroed": lambda a, b, s: jnp.where(jnp.isnan(_grad16(a, b)) | jnp.isinf(_grad16(a, b)),
                                                       0.0, _grad16(a, b)),
    "max abs below inf": lambda a, b, s: jnp.where(jnp.max(jnp.abs(_grad16(a, b))) < jnp.inf, a - _grad16(a, b), a),
    "float16 abs cast up": lambda a, b, s: jnp.abs(a.astype(F16) * b.astype(F16)).astype(F32),
    "a threshold of one value choosing another": lambda a, b, s: jnp.where(a > 0.5, b, 0.0),
    "a sum of two data chosen once": lambda a, b, s: jnp.where(jnp.isfinite(a), a + b, 0.0),
    "update kept where it is zero": lambda a, b, s: jnp.where(_grad16(a, b) == 0, a, a + _grad16(a, b)),
    "stacked and unstacked": lambda a, b, s: sum(jnp.unstack(jnp.stack([_grad16(a, b), a]))),
}

BENT = {
    "abs": lambda a, b, s: a - jnp.abs(_grad16(a, b)),
    "relu": lambda a, b, s: jnp.maximum(a, 0.0),
    "tent map square": lambda a, b, s: _tent_square(jnp.abs(a + b) * 0.25),
    "floor and remainder": lambda a, b, s: jnp.floor(a * 4.0) % 2.0,
    "digits by comparisons": lambda a, b, s: _by_comparisons(a * 0.5 + 0.75, b),
    "digits of a sum of two data by integer bits": lambda a, b, s: _by_int_bits(a * 0.5 + b, b),
    "finiteness test of a sum of two data": lambda a, b, s: jnp.where(jnp.isfinite(a + b), b, 0.0),
    "a choice of a chosen value": lambda a, b, s: jnp.where(b > 1.0, jnp.where(a > 0.5, a + b, 0.0), 0.0),
    "comparison of two data values": lambda a, b, s: jnp.where(a > b, a, 0.0),
    "cast down of a sum of two data": lambda a, b, s: (a + b).astype(F16).astype(F32) - (a + b),
    "sign": lambda a, b, s: jnp.sign(a) * 1.0,
}


@pytest.mark.parametrize("name", sorted(STRAIGHT))
def test_straight_forms(name):
    assert _bent(STRAIGHT[name], A, B, SCALE) == 0


@pytest.mark.parametrize("name", sorted(BENT))
def test_bent_forms(name):
    assert _bent(BENT[name], A, B, SCALE) == 1


def test_finite_inside_a_loop_chooses_as_a_decision():
    def step(a, b, s):
        g = _grad16(a, b) / s
        finite = jnp.isfinite(g).all()
        return lax.fori_loop(0, 1, lambda i, p: jnp.where(finite, p - 0.1 * g, p), a)
    assert _bent(step, A, B, SCALE) == 0


def test_a_loop_whose_body_bends_gives_bent_results():
    def step(a, b, s):
        return lax.fori_loop(0, 3, lambda i, p: jnp.abs(p) - 0.5, a)
    assert _bent(step, A, B, SCALE) == 1


def test_a_loop_that_chooses_its_chosen_carry_again_is_bent():
    def step(a, b, s):
        return lax.fori_loop(0, 3, lambda i, p: jnp.where(a > 0.5, p + b, 0.0), a)
    assert _bent(step, A, B, SCALE) == 1


def test_a_cond_in_a_loop_that_chooses_its_chosen_carry_again_is_bent():
    def step(a, b, s):
        def trip(i, p):
            return lax.cond(a[i] > 0.5, lambda q: q + b, lambda q: q, p)
        return lax.fori_loop(0, 6, trip, a)
    assert _bent(step, A, B, SCALE) == 1


def test_a_while_stopped_by_a_bent_test_is_bent():
    def step(a, b, s):
        return lax.while_loop(lambda c: jnp.max(c[1]) < 4.0, lambda c: (c[0] + 1, c[1] + b), (0, a))[1]
    assert _bent(step, A, B, SCALE) == 1


def test_a_counter_in_a_loop_over_float16_values_stays_straight():
    def step(a, b, s):
        a16, b16 = a.astype(F16), b.astype(F16)
        out = lax.fori_loop(0, 6, lambda i, acc: acc + a16[i] * b16, jnp.zeros_like(b16))
        return out.astype(F32) / s
    assert _bent(step, A, B, SCALE) == 0


def test_only_returned_values_count():
    def step(a, b, s):
        return a - 0.1 * _grad16(a, b), jnp.all(jnp.abs(a) < 3.0)
    assert _bent(step, A, B, SCALE) == 0


def _by_overflow(a, b, steps=64):
    """a * b for a in [0, 2), to a step of 2 / steps: b kept where a * c overflows float32 (a
    finiteness test of a scaled straight value is a threshold on it), summed over the thresholds."""
    out = jnp.zeros_like(b)
    for t in range(1, steps):
        out = out + jnp.where(jnp.isfinite(a * (3e38 / (2.0 * t / steps))), 0.0, b)
    return out * (2.0 / steps)


@pytest.mark.xfail(strict=True, reason="open: a threshold of one straight value (a finiteness "
                   "test of it scaled to overflow, a comparison with a constant) chooses between "
                   "straight values as float16 could, so one layer of products of two straight "
                   "values is straight (their sum is widened, and no later choice or test reads it)")
def test_one_layer_of_products_of_straight_values_is_bent():
    assert _bent(lambda a, b, s: _by_overflow(a * 0.5 + 0.75, b), A, B, SCALE) == 1


def test_products_by_overflow_read_again_are_bent():
    assert _bent(lambda a, b, s: _by_overflow(_by_overflow(a * 0.5 + 0.75, b), b), A, B, SCALE) == 1


def test_a_second_layer_of_products_is_bent():
    def step(a, b, s):
        return _by_int_bits(_by_int_bits(a * 0.5 + 0.75, b), b)
    assert _bent(step, A, B, SCALE) == 1
