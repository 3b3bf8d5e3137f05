"""Differential tests of the float32 sums the evaluator computes in NumPy because XLA's CPU
backend adds their terms in a known order (``exact_ops.SEQUENTIAL_TERMS``): a sum over one
axis of at most 32 terms, of an array of at most 2048 elements, is a loop that adds each
output's terms one after the other from ``+0.0``. Every rank, every axis and every length up
to those bounds, bit for bit against XLA's own ``reduce_sum``, with values that make the order
show (wide magnitudes, cancellation), signed zeros, infinities and partial sums that XLA would
flush; and the sums outside the bounds still go to JAX."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from judge.worker import exact_ops
from tests.test_evaluate import EDGE_F32, F32, NUMPY, SAFE_F32, SUBNORMAL_F32, TINY, compare

RNG = np.random.default_rng(20261207)
TERMS, SIZE = exact_ops.SEQUENTIAL_TERMS, exact_ops.SEQUENTIAL_SIZE


def _total(axes):
    return lambda x: lax.reduce_sum_p.bind(x, axes=tuple(axes), out_sharding=None)


def _values(shape, kind: int) -> np.ndarray:
    """Values whose sum depends on the order it is taken in."""
    if kind == 0:  # magnitudes over 30 binades: the rounding of each partial sum shows
        return (RNG.standard_normal(shape) * np.exp2(RNG.uniform(-15, 15, shape))).astype(F32)
    if kind == 1:  # large terms that cancel around small ones
        big = RNG.choice(np.float32([1e8, -1e8, 3e7, -3e7, 1.0, -1.0, 0.1]), shape)
        return (big + RNG.standard_normal(shape).astype(F32)).astype(F32)
    if kind == 2:  # special values: both zeros, infinities, values that overflow when added
        return RNG.choice(np.float32([0.0, -0.0, -0.0, 3e38, -3e38, 1.0, np.inf, 1.5, -2.5]), shape)
    return RNG.choice(SAFE_F32, shape).astype(F32)


def _shape(rank: int, axis: int, length: int, size: int) -> tuple:
    """A shape of ``rank`` with ``length`` at ``axis`` and at most ``size`` elements, its other
    extents drawn from small and odd ones (1 included: XLA may drop such axes)."""
    shape = [1] * rank
    shape[axis] = length
    for other in RNG.permutation([a for a in range(rank) if a != axis]):
        room = size // math.prod(shape)
        shape[other] = int(RNG.choice([n for n in (1, 2, 3, 5, 8, 13, 16, 17, 33, 64) if n <= room] or [1]))
    return tuple(shape)


#: (shape, axis): lengths around the vector widths, at every axis of ranks 1 to 4, and arrays
#: of the largest size computed here (every length: the slow test below)
SHAPES = [((length,), 0) for length in (2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32)]
SHAPES += [(_shape(rank, axis, length, SIZE), axis) for rank in (2, 3, 4) for axis in range(rank)
           for length in (2, 7, 16, 32)]
SHAPES += [((64, 32), 1), ((32, 64), 0), ((2, 32, 32), 1), ((2, 32, 32), 2), ((8, 16, 16), 0),
           ((16, 8, 16), 2), ((4, 4, 4, 32), 3), ((32, 4, 4, 4), 0), ((1, 2048), 0), ((2048, 1), 1)]


@pytest.mark.parametrize("shape,axis", SHAPES, ids=[f"{s}-{a}" for s, a in SHAPES])
def test_sequential_sums_are_xlas(shape, axis):
    closed = jax.make_jaxpr(_total((axis,)))(np.zeros(shape, F32))
    for kind in range(4):
        compare(closed, _values(shape, kind), path="numpy" if kind != 2 else None)
    compare(closed, np.full(shape, -0.0, F32), path="numpy")  # -0.0 alone sums to +0.0 there


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4])
def test_sequential_sums_are_xlas_at_every_length_and_axis(rank):
    """Every length at every axis, at several sizes up to the bound."""
    for axis in range(rank):
        for length in range(2, TERMS + 1):
            for size in (64, 512, SIZE):
                shape = _shape(rank, axis, length, size)
                closed = jax.make_jaxpr(_total((axis,)))(np.zeros(shape, F32))
                for kind in (0, 1, 3):
                    compare(closed, _values(shape, kind), path="numpy")


def test_a_partial_sum_xla_would_flush_goes_to_jax():
    """Terms that are normal but whose partial sums are subnormal, the smallest normal or NaN:
    XLA flushes the first, so the sum is JAX's; the values agree."""
    closed = jax.make_jaxpr(_total((1,)))(np.zeros((3, 3), F32))
    near = np.float32([[1.5 * TINY, -TINY, 4.0],  # 0.5 * TINY after two terms: flushed in XLA
                       [2 * TINY, -TINY, 1.0],  # the smallest normal after two
                       [1.0, 2.0, 3.0]])
    assert compare(closed, near, path="jax") == ["reduce_sum"]
    cancel = np.float32([[np.inf, -np.inf, 1.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    assert compare(closed, cancel, path="jax") == ["reduce_sum"]
    edges = np.resize(np.concatenate([EDGE_F32, SUBNORMAL_F32]), (3, 3)).astype(F32)
    compare(closed, edges)


@pytest.mark.parametrize("shape,axes", [
    ((TERMS + 1,), (0,)), ((3, TERMS + 1), (1,)), ((TERMS + 1, 3), (0,)), ((3, 4, 5), (0, 2)),
    ((4, 8), (0, 1)), ((2, 2048), (1,)), ((2, 1025, 2), (0,))])
def test_longer_or_larger_or_several_axes_go_to_jax(shape, axes):
    """Over several axes, more than ``TERMS`` terms, or more than ``SIZE`` elements, XLA sums
    in an order of its own."""
    closed = jax.make_jaxpr(_total(axes))(np.zeros(shape, F32))
    x = _values(shape, 0)
    assert compare(closed, x, path="jax") == ["reduce_sum"]


def test_float16_and_other_dtypes_are_unchanged():
    """A float16 sum of several terms is still JAX's (XLA may accumulate it wider)."""
    x = RNG.standard_normal((3, 5)).astype(np.float16)
    assert compare(jax.make_jaxpr(_total((1,)))(x), x, path="jax") == ["reduce_sum"]


def test_softmax_and_norms_are_computed_here():
    """A softmax's denominator and a vector's norm, the sums of these problems: only the
    transcendentals are left to JAX."""
    x = RNG.standard_normal((4, 7)).astype(F32)
    closed = jax.make_jaxpr(lambda v: (jax.nn.softmax(v, axis=-1), jnp.sqrt(jnp.sum(v * v, axis=0))))(x)
    bound = compare(closed, x)
    assert "reduce_sum" not in bound and "exp" in bound, bound
    NUMPY.bound.clear()


# --- moves: bits copied as they are -----------------------------------------------------------

def _bits(dtype, shape) -> np.ndarray:
    """Subnormals, signalling and quiet NaNs with payloads of both signs, infinities, zeros."""
    if dtype == np.float32:
        pool = np.array([0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x7FC00000,
                         0xFFC00000, 0x7F800001, 0xFF800001, 0x7FC12345, 0x7FA00000, 0x0, 0x80000000,
                         0x3F800000, 0x7F800000, 0xFF800000], np.uint32)
    else:
        pool = np.array([0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x7E00, 0xFE00, 0x7C01, 0xFC01, 0x7E55,
                         0x7D00, 0x0, 0x8000, 0x3C00, 0x7C00, 0xFC00], np.uint16)
    return RNG.choice(pool, shape).view(dtype)


MOVE_PROGRAMS = {
    "reshape": lambda a: a.reshape(4, 6),
    "transpose": lambda a: a.T,
    "broadcast_in_dim": lambda a: jnp.broadcast_to(a[:, None, :], (3, 2, 8)),
    "concatenate": lambda a: jnp.concatenate([a, a[:1]], 0),
    "slice": lambda a: a[1:, ::2],
    "rev": lambda a: lax.rev(a, (0, 1)),
    "neg": lambda a: -a,
    "abs": jnp.abs,
    "select_n": lambda a: lax.select(a[::-1] > a, a, a[::-1]),
    "split": lambda a: lax.split(a, (1, 4, 3), axis=1),
    "squeeze": lambda a: lax.squeeze(a[:1], (0,)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["float32", "float16"])
@pytest.mark.parametrize("name", sorted(MOVE_PROGRAMS))
def test_moves_copy_subnormals_and_nan_payloads(name, dtype):
    """XLA copies a subnormal and a NaN's sign and payload through an operation that only moves
    bits (``exact_ops.MOVES``); computed here, they come out the same, bit for bit."""
    x = _bits(dtype, (3, 8))
    closed = jax.make_jaxpr(MOVE_PROGRAMS[name])(x)
    assert name in [e.primitive.name for e in closed.jaxpr.eqns]
    if name == "abs" and dtype == np.float16:  # not among the float16 operations computed here
        compare(closed, x)
        return
    bound = compare(closed, x)
    assert name not in bound, bound


def test_a_move_s_unchecked_result_is_checked_by_the_next_arithmetic():
    """A subnormal moved here is not flushed; the addition that reads it is JAX's."""
    x = _bits(np.float32, (3, 8))
    closed = jax.make_jaxpr(lambda a: a.T.reshape(24) + 1.0)(x)
    assert compare(closed, x, path="jax") == ["add"]
