"""Differential tests of the sums the evaluator computes in NumPy (``exact_ops``): the products
and sums whose result does not depend on the order XLA sums in (one term, no term, int32), bit
for bit as XLA's CPU backend gives them, signed zeros included; and the ones whose order could
matter still go to JAX."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax import lax

from tests.test_evaluate import ALL_I32, EDGE_F32, F32, JAX, NUMPY, SAFE_F32, SUBNORMAL_F32, compare

RNG = np.random.default_rng(20261206)
#: values whose products are normal, zero or infinite, and both zeros, with ordinary ones
SPECIAL = np.concatenate([SAFE_F32, np.float32([0.0, -0.0, -0.0, 1.0, -1.0])])


def _dot(dimension_numbers, **params):
    return lambda a, b: lax.dot_general(a, b, dimension_numbers, **params)


#: (lhs shape, rhs shape, dimension numbers): one term per output, no term, or an outer product
ONE_TERM = [
    ((5, 1), (1, 7), (((1,), (0,)), ((), ()))),
    ((5, 1), (1,), (((1,), (0,)), ((), ()))),
    ((1,), (1, 7), (((0,), (0,)), ((), ()))),
    ((1,), (1,), (((0,), (0,)), ((), ()))),
    ((16,), (16,), (((), ()), ((), ()))),
    ((3, 4), (5,), (((), ()), ((), ()))),
    ((1, 16), (16, 1), (((0,), (1,)), ((), ()))),
    ((4, 1, 3), (4, 1, 6), (((1,), (1,)), ((0,), (0,)))),
    ((4, 3, 1), (4, 1, 6), (((2,), (1,)), ((0,), (0,)))),
    ((4, 3), (4, 6), (((), ()), ((0,), (0,)))),
    ((3, 4), (6, 3), (((), ()), ((0,), (1,)))),
    ((2, 1, 16), (2, 16, 1), (((1,), (2,)), ((0,), (0,)))),
    ((8, 1), (8, 16, 1), (((1,), (2,)), ((0,), (0,)))),
    ((1, 1, 5), (5, 1, 1), (((0, 1), (1, 2)), ((), ()))),
    ((64, 1), (1, 64), (((1,), (0,)), ((), ()))),
    ((3, 0), (0, 4), (((1,), (0,)), ((), ()))),
    ((2, 3, 0), (2, 0), (((2,), (1,)), ((0,), (0,)))),
]


@pytest.mark.parametrize("lhs,rhs,dims", ONE_TERM, ids=[f"{a}x{b}" for a, b, _ in ONE_TERM])
def test_one_term_products(lhs, rhs, dims):
    """Each output one product (or none): NumPy's product is XLA's, a -0.0 kept (XLA does not
    add it to a +0.0), on every kind of dot XLA picks for these shapes."""
    closed = jax.make_jaxpr(_dot(dims))(np.zeros(lhs, F32), np.zeros(rhs, F32))
    for trial in range(12):
        a = RNG.choice(SPECIAL, lhs).astype(F32)
        b = RNG.choice(SPECIAL, rhs).astype(F32) if trial % 3 else (RNG.standard_normal(rhs) * 9).astype(F32)
        compare(closed, a, b, path="numpy" if trial % 4 else None)
    zeros = np.where(RNG.random(lhs) < 0.5, np.float32(-0.0), np.float32(0.0))
    compare(closed, zeros, RNG.choice(np.float32([1.0, -1.0, 0.0, -0.0]), rhs).astype(F32), path="numpy")


def test_one_term_products_with_edge_values():
    """Products that overflow, land near the smallest normal or meet a subnormal: those XLA
    could flush, or that make a NaN, go to JAX, and the values still agree."""
    dims = (((1,), (0,)), ((), ()))
    column = np.concatenate([EDGE_F32, SUBNORMAL_F32]).reshape(-1, 1)
    row = np.resize(np.concatenate([EDGE_F32, SAFE_F32]), (1, 40))
    closed = jax.make_jaxpr(_dot(dims))(column, row)
    assert compare(closed, column, row, path="jax") == ["dot_general"]
    normal = np.resize(np.float32([1.5, -3.0, 2.0**60, -0.0]), (8, 1))
    compare(closed := jax.make_jaxpr(_dot(dims))(normal, row), normal, row)
    inf = np.float32([[np.inf], [1.0]])
    compare(jax.make_jaxpr(_dot(dims))(inf, np.float32([[0.0, 2.0]])), inf, np.float32([[0.0, 2.0]]), path="jax")


@pytest.mark.parametrize("lhs,rhs,dims", [
    ((5, 7), (7,), (((1,), (0,)), ((), ()))),
    ((7, 5), (7, 3), (((0,), (0,)), ((), ()))),
    ((2, 4, 16), (2, 16, 3), (((2,), (1,)), ((0,), (0,)))),
    ((3, 2, 2), (2, 2), (((1, 2), (0, 1)), ((), ()))),
])
def test_int32_products_wrap_in_any_order(lhs, rhs, dims):
    closed = jax.make_jaxpr(_dot(dims))(np.zeros(lhs, np.int32), np.zeros(rhs, np.int32))
    for _ in range(4):
        a, b = RNG.choice(ALL_I32, lhs), RNG.choice(ALL_I32, rhs)
        compare(closed, a, b, path="numpy")
    small = RNG.integers(-9, 10, lhs).astype(np.int32), RNG.integers(-9, 10, rhs).astype(np.int32)
    compare(closed, *small, path="numpy")


@pytest.mark.parametrize("lhs,rhs,dims", [
    ((5, 2), (2,), (((1,), (0,)), ((), ()))),
    ((3, 16), (16, 4), (((1,), (0,)), ((), ()))),
    ((2, 4, 3), (2, 3), (((2,), (1,)), ((0,), (0,)))),
])
def test_float_sums_of_more_terms_go_to_jax(lhs, rhs, dims):
    """Two terms or more: the order of XLA's sums (and whether it fuses a product into one)
    is its own, so the evaluator binds the operation."""
    a, b = RNG.standard_normal(lhs).astype(F32), RNG.standard_normal(rhs).astype(F32)
    closed = jax.make_jaxpr(_dot(dims))(a, b)
    assert compare(closed, a, b, path="jax") == ["dot_general"]


def test_mixed_and_preferred_types_go_to_jax():
    a, b = np.float32([[1.5], [2.0]]), np.float32([[3.0, -0.0]])
    closed = jax.make_jaxpr(_dot((((1,), (0,)), ((), ())), preferred_element_type=np.float32))(a, b)
    compare(closed, a, b, path="numpy")
    ints = np.int32([[3], [-2]])
    widened = jax.make_jaxpr(_dot((((1,), (0,)), ((), ())), preferred_element_type=np.float32))(ints, ints.T)
    assert compare(widened, ints, ints.T.copy(), path="jax") == ["dot_general"]
    halves = a.astype(np.float16), b.astype(np.float16)
    widened = jax.make_jaxpr(_dot((((1,), (0,)), ((), ())), preferred_element_type=np.float32))(*halves)
    assert compare(widened, *halves, path="jax") == ["dot_general"]


@pytest.mark.parametrize("lhs,rhs,dims", ONE_TERM[:6] + ONE_TERM[-2:])
def test_float16_one_term_products_and_sums(lhs, rhs, dims):
    """float16 products of one term are rounded once to float16, as XLA rounds them; a sum of
    one float16 term is the term; two terms go to JAX."""
    values = np.float16([0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 100.0, -250.0, 0.1, 7.0, 1e-3, 60000.0])
    closed = jax.make_jaxpr(_dot(dims))(np.zeros(lhs, np.float16), np.zeros(rhs, np.float16))
    for trial in range(8):
        a = RNG.choice(values, lhs) if trial % 2 else (RNG.standard_normal(lhs) * 30).astype(np.float16)
        b = RNG.choice(values, rhs) if trial % 3 else (RNG.standard_normal(rhs) * 30).astype(np.float16)
        compare(closed, a, b)
    small = (RNG.standard_normal(lhs) * 3).astype(np.float16), (RNG.standard_normal(rhs) * 3).astype(np.float16)
    compare(closed, *small, path="numpy" if min(np.abs(np.concatenate([small[0].ravel(), small[1].ravel(), [1]]))) > 0.01 else None)
    for shape, axes, path in [((5, 1), (1,), "numpy"), ((1, 7), (0,), "numpy"), ((3, 4), (1,), "jax")]:
        x = (RNG.standard_normal(shape) * 9).astype(np.float16)
        total = jax.make_jaxpr(lambda v: lax.reduce_sum_p.bind(v, axes=axes, out_sharding=None))(x)
        compare(total, x, path=path)


#: (shape, axes) of sums of one term or none per output
ONE_TERM_SUMS = [((5, 1), (1,)), ((1,), (0,)), ((1, 7), (0,)), ((3, 1, 4), (1,)), ((1, 1), (0, 1)),
                 ((16,), ()), ((2, 0, 3), (1,)), ((0,), (0,)), ((1, 1, 6), (0, 1))]


@pytest.mark.parametrize("shape,axes", ONE_TERM_SUMS)
def test_one_term_sums(shape, axes):
    """A sum of one element is the element, -0.0 too (NumPy's own reduction would give +0.0);
    a sum of none is +0.0."""
    closed = jax.make_jaxpr(lambda x: lax.reduce_sum_p.bind(x, axes=axes, out_sharding=None))(np.zeros(shape, F32))
    for _ in range(6):
        compare(closed, RNG.choice(SPECIAL, shape).astype(F32), path="numpy")
    compare(closed, np.full(shape, -0.0, F32), path="numpy")


@pytest.mark.parametrize("shape,axes", [((5, 40), (1,)), ((40,), (0,)), ((3, 4, 5), (0, 2))])
def test_int32_sums_wrap_and_float_sums_go_to_jax(shape, axes):
    def total(x):
        return lax.reduce_sum_p.bind(x, axes=axes, out_sharding=None)

    ints = RNG.choice(ALL_I32, shape)
    compare(jax.make_jaxpr(total)(ints), ints, path="numpy")
    floats = RNG.standard_normal(shape).astype(F32)
    assert compare(jax.make_jaxpr(total)(floats), floats, path="jax") == ["reduce_sum"]


def test_the_gradient_of_a_bilinear_form_is_computed_here():
    """u^T W v differentiated with respect to W: the outer product u v^T, computed in NumPy."""
    u, w, v = (RNG.standard_normal(s).astype(F32) for s in ((4,), (4, 3), (3,)))
    grad = jax.make_jaxpr(jax.grad(lambda w_, u_, v_: u_ @ w_ @ v_))(w, u, v)
    NUMPY.bound.clear()
    got = NUMPY.run(grad.jaxpr, grad.consts, w, u, v)[0]
    assert "dot_general" in NUMPY.bound  # the forward products: sums of 4 and 3 terms
    assert np.array_equal(got, JAX.run(grad.jaxpr, grad.consts, w, u, v)[0])
    assert np.array_equal(got, np.outer(u, v))


def test_a_product_too_large_is_left_to_jax_before_numpy_makes_it():
    """An outer product of two long vectors has more elements than the evaluator computes: it
    goes to JAX from its shapes, before NumPy allocates anything."""
    a = jax.ShapeDtypeStruct((1 << 11,), np.float32)
    closed = jax.make_jaxpr(_dot((((), ()), ((), ()))))(a, a)
    plan = NUMPY._plan(closed.jaxpr.eqns[0])
    assert plan is None
    small = jax.make_jaxpr(_dot((((), ()), ((), ()))))(np.zeros(4, F32), np.zeros(4, F32))
    assert NUMPY._plan(small.jaxpr.eqns[0]) is not None
