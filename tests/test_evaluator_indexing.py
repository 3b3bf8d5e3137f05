"""Differential tests of the indexing operations the evaluator computes in NumPy (``index_ops``):
``iota``, ``gather`` and ``scatter-add``, bit for bit as XLA's CPU backend gives them, in every
form JAX's indexing writes them (``take_along_axis``, ``x[i, j]``, ``take``, rows of an
embedding, their derivatives, ``.at[...].add``), with indices in and out of bounds; and the ones
whose result could depend on XLA's order or fill (float updates meeting at one element, a window
out of bounds that XLA drops or fills, an update that is not an addition) still go to JAX."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from judge.worker import exact_ops
from tests.test_evaluate import ALL_I32, EDGE_F32, NAN_F32, SAFE_F32, SUBNORMAL_F32, compare

RNG = np.random.default_rng(20261207)
F32, I32 = np.float32, np.int32


def _names(closed) -> list[str]:
    return [eqn.primitive.name for eqn in closed.jaxpr.eqns]


def _floats(shape, pool=SAFE_F32):
    return np.resize(RNG.permutation(pool), shape).astype(F32)


def _closed(fun, *args):
    """``fun``'s program with every jitted call inlined (as the case runner evaluates it)."""
    with jax.disable_jit():
        return jax.make_jaxpr(fun)(*args)


# --- iota -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("shape,dimension", [((7,), 0), ((1, 5), 1), ((4, 3), 0), ((2, 3, 4), 2),
                                             ((2, 3, 4), 1), ((0, 3), 1), ((1,), 0)])
def test_iota(dtype, shape, dimension):
    closed = jax.make_jaxpr(lambda: lax.broadcasted_iota(dtype, shape, dimension))()
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["iota"]
    compare(closed, path="numpy")


def test_iota_of_a_long_axis_and_one_hot():
    compare(jax.make_jaxpr(lambda: lax.iota(np.float32, 1 << 20))(), path="numpy")
    labels = np.int32([0, 4, 2, 2, -1, 5])
    compare(_closed(lambda l: jax.nn.one_hot(l, 5), labels), labels, path="numpy")


def test_iota_of_other_dtypes_goes_to_jax():
    closed = jax.make_jaxpr(lambda: lax.iota(np.float16, 9))()
    assert compare(closed, path="jax") == ["iota"]


# --- gather ---------------------------------------------------------------------------------

GATHERS = [
    ("take_along_axis", (6, 5), (6,), lambda x, i: jnp.take_along_axis(x, i[:, None], axis=1)),
    ("take_along_axis 3-d", (3, 4, 5), (3, 4), lambda x, i: jnp.take_along_axis(x, i[..., None], axis=2)),
    ("take_along_axis axis 0", (6, 5), (5,), lambda x, i: jnp.take_along_axis(x, i[None, :], axis=0)),
    ("pairs", (6, 5), (6,), lambda x, i: x[jnp.arange(6), i]),
    ("rows", (6, 5), (4,), lambda x, i: x[i]),
    ("rows of rows", (6, 5), (2, 3), lambda x, i: x[i]),
    ("columns", (6, 5), (3,), lambda x, i: x[:, i]),
    ("take clip", (6, 5), (4,), lambda x, i: jnp.take(x, i, axis=1, mode="clip")),
    ("take fill", (6, 5), (4,), lambda x, i: jnp.take(x, i, axis=0, mode="fill")),
    ("rows at an array index", (6, 5), (1,), lambda x, i: x[i, 1:4]),
    ("window", (8, 5), (), lambda x, i: lax.gather(
        x, i.reshape(1), lax.GatherDimensionNumbers(offset_dims=(0, 1), collapsed_slice_dims=(), start_index_map=(0,)),
        (3, 5), mode="promise_in_bounds")),
    ("windows", (8, 6), (4, 2), lambda x, i: lax.gather(
        x, i, lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)),
        (3, 2), mode="clip")),
]


def _indices(shape, low, high):
    return RNG.integers(low, high, shape).astype(I32)


@pytest.mark.parametrize("case", range(len(GATHERS)), ids=[g[0] for g in GATHERS])
def test_gather_forms(case):
    """Each form of JAX's indexing, in bounds (negative indices too, which JAX wraps), then with
    indices far out of bounds: clamped as XLA clamps them, or (a fill) handed to JAX."""
    _, shape, index_shape, fun = GATHERS[case]
    x = _floats(shape)
    i = _indices(index_shape, -3, 3)
    closed = _closed(fun, x, i)
    assert "gather" in _names(closed)
    compare(closed, x, i, path="numpy")
    compare(closed, _floats(shape, np.concatenate([SUBNORMAL_F32, EDGE_F32, NAN_F32])), i, path=None)
    n = np.resize(RNG.permutation(ALL_I32), shape)
    compare(_closed(fun, n, i), n, i, path="numpy")
    b = RNG.random(shape) < 0.5
    compare(_closed(fun, b, i), b, i, path="numpy")
    h = np.clip(x, -1000, 1000).astype(np.float16)
    compare(_closed(fun, h, i), h, i, path="numpy")
    far = _indices(index_shape, -40, 40)
    bound = compare(closed, x, far)
    assert set(bound) <= {"gather"}


def test_gather_fill_out_of_bounds_goes_to_jax():
    x, i = _floats((6, 5)), np.int32([1, 7, 2])
    closed = _closed(lambda x, i: jnp.take(x, i, axis=0, mode="fill"), x, i)
    assert compare(closed, x, i, path="jax") == ["gather"]
    closed = _closed(lambda x, i: jnp.take_along_axis(x, i[:, None], axis=1), x, np.int32([0, 1, 2, 3, 4, 9]))
    assert compare(closed, x, np.int32([0, 1, 2, 3, 4, 9]), path="jax") == ["gather"]
    compare(closed, x, np.int32([0, 1, 2, 3, 4, -5]), path="numpy")  # wrapped: in bounds


def test_gather_of_empty_arrays():
    x, i = _floats((6, 5)), np.zeros((0,), I32)
    compare(_closed(lambda x, i: x[i], x, i), x, i, path="numpy")
    compare(_closed(lambda x, i: x[:, i], x, i), x, i, path="numpy")


@pytest.mark.parametrize("trial", range(24))
def test_gather_random_dimension_numbers(trial):
    """Random gathers of rank up to 3, with batching dimensions, collapsed and kept axes,
    windows of every size and indices in and out of bounds."""
    rng = np.random.default_rng(trial)
    rank = int(rng.integers(1, 4))
    shape = tuple(int(n) for n in rng.integers(1, 5, rank))
    batch = int(rng.integers(0, 3))
    batch_shape = tuple(int(n) for n in rng.integers(1, 4, batch))
    dims = list(range(rank))
    operand_batching = tuple(sorted(rng.choice(dims, min(batch, int(rng.integers(0, rank))), replace=False).tolist())) \
        if batch and rank > 1 else ()
    start_map = tuple(rng.permutation([d for d in dims if d not in operand_batching])[:int(rng.integers(1, rank + 1))].tolist())
    if not start_map:
        start_map = tuple(d for d in dims if d not in operand_batching)[:1]
    if not start_map:
        operand_batching, start_map = (), (0,)
    index_batching = tuple(sorted(rng.choice(range(batch), len(operand_batching), replace=False).tolist())) \
        if operand_batching else ()
    shape = list(shape)
    for d, i in zip(operand_batching, index_batching):
        shape[d] = batch_shape[i]
    shape = tuple(shape)
    collapsed = tuple(sorted(d for d in start_map if rng.random() < 0.5))
    sizes = tuple(1 if d in collapsed or d in operand_batching else int(rng.integers(0 if d not in start_map else 1, shape[d] + 1))
                  for d in dims)
    window = [d for d in dims if d not in collapsed and d not in operand_batching]
    out_rank = batch + len(window)
    offset_dims = tuple(sorted(rng.choice(range(out_rank), len(window), replace=False).tolist()))
    dn = lax.GatherDimensionNumbers(offset_dims=offset_dims, collapsed_slice_dims=collapsed,
                                    start_index_map=start_map, operand_batching_dims=operand_batching,
                                    start_indices_batching_dims=index_batching)
    x = _floats(shape)
    for mode in ("clip", "promise_in_bounds", "fill"):
        fun = lambda x, i, mode=mode: lax.gather(x, i, dn, sizes, mode=mode)  # noqa: E731
        i = rng.integers(-1, max(shape) + 1, (*batch_shape, len(start_map))).astype(I32)
        closed = jax.make_jaxpr(fun)(x, i)
        compare(closed, x, i, path=None if mode == "fill" else "numpy")
        inside = np.minimum(np.maximum(i, 0), np.int32([shape[d] - sizes[d] for d in start_map]))
        compare(closed, x, inside, path="numpy")


# --- scatter-add ----------------------------------------------------------------------------

def test_derivatives_of_gathers():
    """The derivative of each gather (a scatter-add into zeros, one update per element where
    the indices differ): computed here, signed zeros as XLA gives them."""
    x, labels = _floats((6, 5)), np.int32([1, 4, 0, 0, 3, 2])
    for fun in (lambda x, l: jnp.take_along_axis(x, l[:, None], axis=1).sum(),
                lambda x, l: (x[jnp.arange(6), l] * jnp.float32(-0.0)).sum(),
                lambda x, l: -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(x), l[:, None], axis=1))):
        closed = _closed(jax.grad(fun), x, labels)
        assert "scatter-add" in _names(closed)
        bound = compare(closed, x, labels)
        assert "scatter-add" not in bound and "gather" not in bound and "iota" not in bound


def test_repeated_float_updates_go_to_jax_and_int_updates_do_not():
    table, ids = _floats((5, 3)), np.int32([[0, 2], [2, 4]])
    closed = _closed(jax.grad(lambda w, i: (w[i] * jnp.arange(1.0, 4.0)).sum()), table, ids)
    assert "scatter-add" in compare(closed, table, ids)
    compare(closed, table, np.int32([[0, 1], [2, 4]]), path="numpy")
    counts = np.zeros(5, I32)
    closed = _closed(lambda c, i: c.at[i].add(np.int32(2**30 + 7)), counts, ids)
    compare(closed, counts, ids, path="numpy")
    compare(closed, np.resize(ALL_I32, 5), np.int32([[1, 1], [1, 1]]), path="numpy")
    promised = _closed(lambda c, i: c.at[i].add(np.int32(3), unique_indices=True), counts, ids)
    compare(promised, counts, np.int32([[0, 1], [2, 4]]), path="numpy")
    assert compare(promised, counts, ids, path="jax") == ["scatter-add"]  # a broken promise: XLA's


ADDS = [
    ("at add", (6,), (3,), lambda x, i, u: x.at[i].add(u)),
    ("at add rows", (6, 4), (2,), lambda x, i, u: x.at[i].add(u)),
    ("at add columns", (4, 6), (3,), lambda x, i, u: x.at[:, i].add(u)),
    ("at add pairs", (4, 6), (3,), lambda x, i, u: x.at[i, jnp.array([5, 0, 2])].add(u)),
    ("at add clip", (6,), (3,), lambda x, i, u: x.at[i].add(u, mode="clip")),
    ("at add drop", (6,), (3,), lambda x, i, u: x.at[i].add(u, mode="drop")),
    ("at add promise", (6,), (3,), lambda x, i, u: x.at[i].add(u, mode="promise_in_bounds")),
]


@pytest.mark.parametrize("case", range(len(ADDS)), ids=[a[0] for a in ADDS])
def test_scatter_add_forms(case):
    _, shape, index_shape, fun = ADDS[case]
    x = _floats(shape)
    i = RNG.permutation(min(shape))[:index_shape[0]].astype(I32)  # distinct
    u_shape = _update_shape(fun, x, i)
    u = _floats(u_shape)
    closed = _closed(fun, x, i, u)
    assert "scatter-add" in _names(closed)
    compare(closed, x, i, u, path="numpy")
    compare(closed, np.where(RNG.random(shape) < 0.5, F32(0.0), F32(-0.0)).astype(F32), i,
            np.where(RNG.random(u_shape) < 0.5, F32(0.0), F32(-0.0)).astype(F32), path="numpy")
    compare(closed, x, i, _floats(u_shape, np.concatenate([SUBNORMAL_F32, EDGE_F32, NAN_F32])))
    far = np.int32([9, -9, 1])[:index_shape[0]]
    compare(closed, x, far, u)  # dropped, clamped or wrapped: as XLA does, here or in JAX


def _update_shape(fun, x, i):
    """The shape of the updates ``fun`` adds at ``i``: that of ``x[...]`` as it indexes."""
    closed = jax.make_jaxpr(lambda x, i: fun(x, i, 0.0))(x, i)
    for eqn in closed.jaxpr.eqns:
        if eqn.primitive.name == "scatter-add":
            return tuple(eqn.invars[2].aval.shape)
    raise AssertionError("no scatter-add")


def test_a_scatter_whose_update_is_not_an_addition_goes_to_jax():
    """``scatter-add`` bound with another update program: XLA applies that program, and the
    evaluator hands it over."""
    from jax._src.lax import slicing

    mul = jax.make_jaxpr(lax.mul)(F32(0), F32(0)).jaxpr
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))

    def fun(x, i, u):
        return slicing.scatter_add_p.bind(x, i, u, update_jaxpr=mul, update_consts=(), dimension_numbers=dn,
                                          indices_are_sorted=False, unique_indices=False,
                                          mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)

    x, i, u = _floats((5,)), np.int32([[1], [3]]), F32([3.0, 5.0])
    closed = jax.make_jaxpr(fun)(x, i, u)
    assert compare(closed, x, i, u, path="jax") == ["scatter-add"]


def test_the_table_holds_the_indexing_operations():
    table = exact_ops.table()
    assert {"iota", "gather", "scatter-add"} <= set(table)
    assert "gather" in exact_ops.MOVES and "scatter-add" not in exact_ops.MOVES
