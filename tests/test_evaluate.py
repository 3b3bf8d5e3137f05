"""Differential tests of ``judge.worker.evaluate``: every operation the evaluator computes in
NumPy gives the same bits as the operation bound by JAX (XLA's CPU backend) on special and random
values, at every dtype and shape it accepts, and the NumPy path is really taken where it should
be, so that no test passes by always falling back to JAX."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from judge.worker import evaluate, exact_ops
from judge.worker.evaluate import Evaluator

F32, I32, BOOL = np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_)
TINY = float(np.finfo(np.float32).tiny)
BIG = float(np.finfo(np.float32).max)
RNG = np.random.default_rng(20261203)


class Recording(Evaluator):
    """An evaluator that records the name of every operation it hands to JAX."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bound: list[str] = []

    def _bind(self, eqn, values):
        self.bound.append(eqn.primitive.name)
        return super()._bind(eqn, values)


NUMPY = Recording(jax)
JAX = Evaluator(jax, uses_numpy=False)
JAX_ONLY = Recording(jax, uses_numpy=False)


# --- values ---------------------------------------------------------------------------------

def _ties():
    halves = [k + 0.5 for k in (0, 1, 2, 3, 4, 5, 10, 11, 100, 101, 2**10, 2**10 + 1, 2**20, 2**21 + 1,
                                2**22, 2**22 + 1, 2**23 - 1)]
    return halves + [0.25, 0.75, 2.25, 1.75, 0.4999999701976776, 0.5000000596046448]


_NEAR = [2.0**23 - 1, 2.0**23 - 0.5, 2.0**23, 2.0**23 + 1, 2.0**23 + 2, 2.0**24 - 1, 2.0**24, 2.0**24 + 2,
         2.0**24 + 4, 2.0**30, 2.0**31 - 128, 2.0**31, 2.0**31 + 256, 2.0**32 - 256, 1 / 3, 0.1, 7.0, 1e-3]


def _pool(values):
    values = np.array(values, np.float64).astype(np.float32)
    return np.unique(np.concatenate([values, -values]))  # both signs; one NaN, both zeros kept below


#: float32 values whose sums, products, quotients, square roots and powers (|y| <= 4) are all
#: normal, zero, infinite or NaN: magnitudes in [2**-30, 2**32]. The NumPy path must take them
#: where no NaN is made.
SAFE_F32 = np.concatenate([
    _pool([0.0, 1.0, 2.0, 3.0, 0.5, 1.5, np.inf, 2.0**-30, 2.0**32, *_ties(), *_NEAR]),
    np.array([-0.0], np.float32),
    (RNG.choice([-1.0, 1.0], 24) * 2.0 ** RNG.uniform(-30, 31.9, 24)).astype(np.float32),
])
#: normal float32 values where NumPy and XLA could part ways: the smallest normals, values whose
#: products, quotients or powers land on, near or below them, and the largest floats.
EDGE_F32 = _pool([
    TINY, 2 * TINY, 1.5 * TINY, float(np.nextafter(np.float32(TINY), np.float32(1))), 1 - 2.0**-24,
    1 + 2.0**-23, 1 + 2.0**-22, 0.5 - 2.0**-25, 2.0 - 2.0**-23, 2.0**-63, 2.0**-64, 2.0**-75, 2.0**-100,
    2.0**-125, 2.0**63, 2.0**64, 2.0**100, 2.0**125, 2.0**126, 2.0**127, BIG, 3e38, 1e-38, 3.0 * 2.0**-43])
#: subnormals: XLA flushes them to zero, inputs and results
SUBNORMAL_F32 = _pool([TINY / 2, TINY / 3, float(np.nextafter(np.float32(TINY), np.float32(0))),
                       2.0**-149, 2.0**-148, 1e-40, 1e-45])
#: every normal value (the NumPy path takes them unless a result could be flushed)
#: NaN of both signs: an operation that meets or makes one goes to JAX (XLA's NaN bits are its own)
NAN_F32 = np.array([np.nan, -np.nan], np.float32)
ALL_F32 = np.concatenate([SAFE_F32, EDGE_F32, NAN_F32])

INT32_MIN, INT32_MAX = -2**31, 2**31 - 1
ALL_I32 = np.unique(np.concatenate([
    np.array([0, 1, -1, 2, -2, 3, -3, 7, 100, -100, 2**15, 2**16 + 1, 46340, 46341, 2**24, 2**24 + 1,
              2**30, 2**31 - 1, -2**31, -2**31 + 1, 1290, -1291], np.int64),
    RNG.integers(INT32_MIN, INT32_MAX, 16, endpoint=True)]).astype(np.int32))
ALL_BOOL = np.array([False, True])


def grid(values):
    """Two arrays holding every pair of ``values``: (x[i, j], y[i, j]) = (values[i], values[j])."""
    x, y = np.meshgrid(values, values, indexing="ij")
    return np.ascontiguousarray(x), np.ascontiguousarray(y)


# --- comparison -----------------------------------------------------------------------------

def assert_same(got, want, inputs=(), exact_nan=False):
    """Equal bits, NaN matching NaN (with ``exact_nan``, NaN's sign and payload too); names the
    inputs at the first differences."""
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.kind == "f" and exact_nan:
        bits = np.dtype(f"u{got.dtype.itemsize}")
        bad = got.view(bits) != want.view(bits)
    elif got.dtype.kind == "f":
        nan_got, nan_want = np.isnan(got), np.isnan(want)
        bits = np.dtype(f"u{got.dtype.itemsize}")
        bad = (nan_got != nan_want) | (~nan_got & ~nan_want & (got.view(bits) != want.view(bits)))
    else:
        bad = got != want
    if bad.any():
        where = [tuple(int(i) for i in index) for index in np.argwhere(bad)[:6]] if got.ndim else [()]
        shown = []
        for index in where:
            args = []
            for arg in inputs:
                arg = np.asarray(arg)
                try:
                    args.append(np.broadcast_to(arg, got.shape)[index].item())
                except ValueError:
                    args.append(f"<{arg.shape}>")
            shown.append(f"inputs {args}: numpy {got[index]!r} xla {want[index]!r}")
        raise AssertionError(f"{int(bad.sum())} values differ:\n" + "\n".join(shown))


def compare(closed, *args, path=None):
    """Runs ``closed`` under the NumPy evaluator and under JAX and asserts equal bits. ``path``
    "numpy": no operation went to JAX; "jax": at least one did; None: either."""
    NUMPY.bound.clear()
    got = NUMPY.run(closed.jaxpr, closed.consts, *args)
    bound = list(NUMPY.bound)
    want = JAX.run(closed.jaxpr, closed.consts, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, args, exact_nan=True)  # a program can read a NaN's bits back
    if path == "numpy" and any(np.isnan(np.asarray(v)).any() for v in [*args, *want]
                               if np.asarray(v).dtype.kind == "f"):
        path = None  # an operation that meets or makes a NaN goes to JAX
    if path == "numpy":
        assert not bound, f"{bound} went to JAX for {closed}"
    elif path == "jax":
        assert bound, f"nothing went to JAX for {closed}"
    return bound


def test_the_comparison_sees_signed_zeros_and_nan():
    assert_same(np.float32([np.nan, 0.0]), np.float32([-np.nan, 0.0]))
    with pytest.raises(AssertionError):
        assert_same(np.float32([np.nan]), np.float32([-np.nan]), exact_nan=True)
    with pytest.raises(AssertionError):
        assert_same(np.float32([0.0]), np.float32([-0.0]))
    with pytest.raises(AssertionError):
        assert_same(np.float32([np.nan]), np.float32([1.0]))
    with pytest.raises(AssertionError):
        assert_same(np.int32([1]), np.float32([1]))


def test_the_numpy_path_is_detected():
    closed = jax.make_jaxpr(lax.exp)(np.float32([1.0]))
    with pytest.raises(AssertionError, match="nothing went to JAX"):
        compare(jax.make_jaxpr(lax.neg)(np.float32([1.0])), np.float32([1.0]), path="jax")
    with pytest.raises(AssertionError, match="went to JAX"):
        compare(closed, np.float32([1.0]), path="numpy")


# --- binary operations ----------------------------------------------------------------------

_ARITH = {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "max": lax.max, "min": lax.min}
_COMPARE = {"eq": lax.eq, "ne": lax.ne, "lt": lax.lt, "le": lax.le, "gt": lax.gt, "ge": lax.ge}
_BITWISE = {"and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor}
BINARY = {
    F32: {**_ARITH, **_COMPARE},
    I32: {**_ARITH, **_COMPARE, **_BITWISE},
    BOOL: {"max": lax.max, "min": lax.min, **_COMPARE, **_BITWISE},
}
#: operations also tried with a Python scalar
WEAK = ("add", "mul", "div", "max", "lt", "and")
#: (dtype, operation) pairs the evaluator always leaves to JAX
TO_JAX = {(I32, "div")}
SAFE = {F32: SAFE_F32, I32: ALL_I32, BOOL: ALL_BOOL}
ALL = {F32: ALL_F32, I32: ALL_I32, BOOL: ALL_BOOL}
#: a few scalars per dtype for literals and rank-0 operands
SCALARS = {
    F32: [0.0, -0.0, 1.0, -2.5, 3.0, 0.1, 2.0**31, np.inf, np.nan, TINY, 2.0**126, 2.0**127, 1e-40,
          1 - 2.0**-24],
    I32: [0, 1, -1, 3, -7, 2**31 - 1, -2**31],
    BOOL: [False, True],
}
_SAFE_SCALARS = {F32: lambda v: v == 0 or 2.0**-30 <= abs(v) <= 2.0**32}


def _binary_cases():
    for dtype, ops in BINARY.items():
        for name in ops:
            yield pytest.param(dtype, name, id=f"{name}-{dtype.name}")


def _expect(dtype, name, safe):
    if (dtype, name) in TO_JAX:
        return "jax"
    return "numpy" if safe else None


@pytest.mark.parametrize("dtype,name", list(_binary_cases()))
def test_binary_same_shape(dtype, name):
    """Every pair of values, in a 2-D array (XLA's vector loop and its remainder) and at rank 0
    (its scalar code); float32 also with subnormal inputs. One program per shape: the JAX side
    compiles one for each, and that is most of this file's time."""
    op = BINARY[dtype][name]
    x, y = grid(ALL[dtype])
    closed = jax.make_jaxpr(op)(x, y)
    compare(closed, x, y, path=_expect(dtype, name, dtype != F32))
    if dtype == F32:
        sx, sy = (np.resize(v, x.shape) for v in grid(SAFE_F32))
        compare(closed, sx, sy, path=_expect(dtype, name, True))
        # subnormal inputs, which XLA reads as zeros, among random pairs
        a, b = (np.concatenate([RNG.permutation(v.ravel())[:1000], SUBNORMAL_F32]) for v in (x, y))
        flat = jax.make_jaxpr(op)(a, b)
        compare(flat, a, b[::-1].copy(), path="jax")
        compare(flat, b, a, path="jax")
    scalars = np.array(SCALARS[dtype], dtype)
    closed = jax.make_jaxpr(op)(np.zeros((), dtype), np.zeros((), dtype))
    picked = np.concatenate([scalars[:3], RNG.choice(scalars, 3)])
    if dtype == F32:
        picked = np.concatenate([picked, SUBNORMAL_F32[:1], EDGE_F32[:2]])
    for a in picked:
        for b in picked[::-1]:
            compare(closed, a, b)


@pytest.mark.parametrize("dtype,name", list(_binary_cases()))
def test_binary_with_scalar(dtype, name):
    """A rank-0 operand with an array, as a literal (a Python or NumPy scalar in the program)
    or as a rank-0 input; on either side. XLA divides an array by a scalar as a product with
    the scalar's reciprocal, but not an array of one value."""
    op = BINARY[dtype][name]
    safe = _SAFE_SCALARS.get(dtype, lambda v: True)
    x = ALL[dtype].reshape(-1, 1) if dtype != BOOL else ALL_BOOL
    sx = np.resize(SAFE[dtype], x.shape)  # the same shape: the same programs
    shapes = [(x.shape, [x, sx] if dtype == F32 else [x], SCALARS[dtype])]
    if name == "div":
        shapes += [(shape, [np.full(shape, v, dtype) for v in (3, 7, -1)], SCALARS[dtype][::2])
                   for shape in [(1,), (1, 1), (2,)]]
    for shape_x, arrays, values in shapes:
        scalar_right = jax.make_jaxpr(op)(arrays[0], np.zeros((), dtype))
        scalar_left = jax.make_jaxpr(op)(np.zeros((), dtype), arrays[0]) if dtype == F32 else None
        for value in values:
            s = np.asarray(value, dtype)
            programs = [jax.make_jaxpr(lambda a: op(a, s))(arrays[0])]  # the same XLA program
            if scalar_left is not None:
                programs.append(jax.make_jaxpr(lambda a: op(s, a))(arrays[0]))
            if name in WEAK:  # a Python scalar: x * 2.0, 1.0 / x (weakly typed, compiled apart)
                python = s.item()
                programs.append(jax.make_jaxpr(lambda a: op(a, python))(arrays[0]))
                if dtype == F32:
                    programs.append(jax.make_jaxpr(lambda a: op(python, a))(arrays[0]))
            for array in arrays:
                path = _expect(dtype, name, safe(value) and (array is sx or dtype != F32))
                compare(scalar_right, array, s, path=path)
                if scalar_left is not None:
                    compare(scalar_left, s, array, path=path)
                for closed in programs:
                    compare(closed, array, path=path)


FLAT = 1000 + SUBNORMAL_F32.size  # the length of test_binary_same_shape's flat arrays: programs reused
TABLE = exact_ops.table()


def random_floats(n):
    """Random bit patterns (every exponent, NaN payloads, infinities), subnormals made zeros."""
    return no_subnormals(RNG.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32))


def no_subnormals(x):
    return np.where(np.abs(x) < np.float32(TINY), np.copysign(np.float32(0), x), x)


def table_result(name, *arrays, **params):
    """The table function's own result, without the evaluator's guards (None: it declined)."""
    with np.errstate(all="ignore"):
        out = TABLE[name][0](*arrays, **params)
    return None if out is None else np.asarray(out)


def assert_agrees_unless_flushed(got, want, inputs):
    """Equal bits wherever NumPy's result is not one that XLA could flush (a subnormal or the
    smallest normal, where the evaluator hands the operation to JAX)."""
    kept = ~((np.abs(got) <= np.float32(TINY)) & (got != 0)) if got.dtype == F32 else np.ones(got.shape, bool)
    assert kept.mean() > 0.9
    assert_same(got[kept], want[kept], [np.asarray(i)[kept] for i in inputs])


@pytest.mark.parametrize("name", list(_ARITH) + list(_COMPARE))
def test_binary_table_functions_on_random_bits(name):
    """The NumPy functions themselves, on random float32 bit patterns, element by element as XLA
    computes them (the evaluator's all-or-nothing guards would hide most of these values)."""
    op = BINARY[F32][name]
    closed = jax.make_jaxpr(op)(np.zeros(FLAT, F32), np.zeros(FLAT, F32))
    for _ in range(6):
        x, y = random_floats(FLAT), random_floats(FLAT)
        with np.errstate(all="ignore"):  # nearby magnitudes: cancellation, ties
            y[::3] = x[::3] * np.float32(RNG.uniform(0.5, 2))
        y = no_subnormals(y)
        want = np.asarray(JAX.run(closed.jaxpr, closed.consts, x, y)[0])
        assert_agrees_unless_flushed(table_result(name, x, y), want, (x, y))
    if name in _ARITH:  # int32: wrapping arithmetic, on every bit pattern
        shape = (ALL_I32.size, ALL_I32.size)  # test_binary_same_shape's program
        closed = jax.make_jaxpr(BINARY[I32][name])(np.zeros(shape, I32), np.zeros(shape, I32))
        x, y = (RNG.integers(-2**31, 2**31, shape).astype(np.int32) for _ in range(2))
        want = np.asarray(JAX.run(closed.jaxpr, closed.consts, x, y)[0])
        got = table_result(name, x, y)
        if got is not None:
            assert_same(got, want, (x, y))


#: NaNs of both signs and several payloads (quiet and signalling bit patterns), as float32 bits
NAN_PAYLOADS_F32 = np.uint32([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF,
                              0x7FC01234, 0x7FA00000]).view(np.float32)


@pytest.mark.parametrize("name", list(_COMPARE))
@pytest.mark.parametrize("dtype", [F32, np.dtype(np.float16)])
def test_comparisons_meeting_nan_are_computed(name, dtype):
    """A comparison that meets a NaN (any sign or payload) is computed here, with XLA's bools:
    a NaN compares unordered. In a 2-D array (XLA's vector loop and its remainder), against
    scalars, at rank 0; an operand holding a subnormal still goes to JAX (XLA reads it as a
    zero)."""
    op = BINARY[F32][name]
    nans = NAN_PAYLOADS_F32 if dtype == F32 else np.uint16([0x7E00, 0xFE00, 0x7C01, 0xFFFF, 0x7D23]).view(np.float16)
    base = np.resize(SAFE_F32, 40) if dtype == F32 else RNG.choice(SAFE_F16, 40)
    values = np.concatenate([base, nans, np.array([np.inf, -np.inf, 0.0, -0.0], dtype)])
    x, y = grid(values)
    closed = jax.make_jaxpr(op)(x, y)
    assert compare(closed, x, y) == []
    for a, b in ((x[:, :7], np.float32(np.nan)), (np.array(nans[0]), y[3, :5])):
        a, b = np.asarray(a, dtype), np.asarray(b, dtype)
        closed = jax.make_jaxpr(op)(a, b)
        assert compare(closed, a, b) == []
    scalar = jax.make_jaxpr(op)(np.zeros((), dtype), np.zeros((), dtype))
    for a in (nans[0], nans[-1], values[0]):
        for b in (nans[1], np.dtype(dtype).type(1.5)):
            assert compare(scalar, np.asarray(a), np.asarray(b)) == []
    tiny = np.finfo(dtype).tiny
    flushed = np.array([np.nan, tiny / 2, 1.0], dtype)
    closed = jax.make_jaxpr(op)(flushed, flushed[::-1])
    assert compare(closed, flushed, flushed[::-1].copy()) == [name]
    # the NaN compared is not taken as checked: an addition reading it next goes to JAX
    pair = np.array([np.nan, 1.0], dtype)
    closed = jax.make_jaxpr(lambda a, b: (op(a, b), a + b))(pair, pair[::-1].copy())
    assert compare(closed, pair, pair[::-1].copy()) == ["add"]


def test_division_by_a_scalar_is_a_product_with_its_reciprocal():
    """The rewrite is visible: 3 * (1/3) rounds differently from 3 / 3... and NumPy follows it."""
    x = np.arange(1, 1001, dtype=np.float32)
    closed = jax.make_jaxpr(lambda a: a / 3.0)(x)
    direct = x / np.float32(3.0)
    rewritten = x * (np.float32(1.0) / np.float32(3.0))
    assert (direct != rewritten).any()  # the two roundings do differ somewhere on these values
    compare(closed, x, path="numpy")
    assert_same(NUMPY.run(closed.jaxpr, closed.consts, x)[0], rewritten)


#: (dividend, divisor) shapes: lax.div broadcasts axes of extent 1, and XLA rewrites a division
#: by a broadcast divisor (one with fewer elements than the quotient) as a product with its
#: reciprocal; a divisor broadcast to no more elements is divided by
DIVISIONS = [((400, 3), (400, 1), "reciprocal"), ((3, 400), (1, 400), "reciprocal"),
             ((1, 400), (1, 1), "reciprocal"), ((400, 1), (1, 3), "reciprocal"), ((400,), (), "reciprocal"),
             ((1, 2), (1, 1), "reciprocal"), ((400, 1), (400, 3), "exact"), ((1,), (), "exact"),
             ((1, 1), (), "exact"), ((5, 1), (5, 1), "exact")]


@pytest.mark.parametrize("dividend,divisor,kind", DIVISIONS)
def test_division_by_a_broadcast_divisor(dividend, divisor, kind):
    rng = np.random.default_rng(7)  # its own: the data must tell the two roundings apart
    a = rng.uniform(1, 1000, dividend).astype(np.float32)
    b = rng.uniform(1, 10, divisor).astype(np.float32)
    closed = jax.make_jaxpr(lambda x, y: x / y)(a, b)
    assert _names(closed.jaxpr) == ["div"]
    compare(closed, a, b, path="numpy")
    exact, product = np.divide(a, b), a * np.divide(np.float32(1), b)
    want = np.asarray(JAX.run(closed.jaxpr, closed.consts, a, b)[0])
    if a.size >= 400:
        assert not np.array_equal(exact, product)
    assert_same(want, product if kind == "reciprocal" else exact)
    # with the special values: the reciprocal of a huge divisor is flushed
    x = np.resize(ALL_F32, dividend)
    y = np.resize(rng.permutation(np.concatenate([SAFE_F32, EDGE_F32[-6:]])), divisor)
    compare(closed, x, y)


@pytest.mark.parametrize("name", list(_ARITH) + list(_COMPARE))
def test_binary_broadcasting_axes_of_extent_one(name):
    op = BINARY[F32][name]
    x, y = grid(ALL_F32)
    column = np.ascontiguousarray(y[:1, :].T)  # (n, 1)
    closed = jax.make_jaxpr(op)(x, column)
    compare(closed, x, column)
    sx = np.resize(SAFE_F32, x.shape)
    compare(closed, sx, np.resize(SAFE_F32[::-1], column.shape), path="numpy")


def test_products_rounding_up_to_the_smallest_normal_are_flushed():
    """(1 - 2**-24) * 2**-126 is exactly halfway below 2**-126: NumPy rounds it up to 2**-126,
    XLA flushes it to zero."""
    x = np.float32([1 - 2.0**-24, -(1 - 2.0**-24), 1.0, 2.0])
    y = np.float32([TINY, TINY, TINY, TINY])
    closed = jax.make_jaxpr(lax.mul)(x, y)
    compare(closed, x, y, path="jax")
    assert_same(JAX.run(closed.jaxpr, closed.consts, x, y)[0], np.float32([0.0, -0.0, TINY, 2 * TINY]))


# --- unary operations -----------------------------------------------------------------------

UNARY = {
    F32: {"neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "floor": lax.floor, "ceil": lax.ceil,
          "round0": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
          "round1": lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
          "sqrt": lax.sqrt, "square": lax.square, "copy": lax.copy_p.bind,
          **{f"pow{y}": (lambda x, y=y: lax.integer_pow(x, y)) for y in range(-3, 5)},
          "to_int32": lambda x: lax.convert_element_type(x, np.int32),
          "to_bool": lambda x: lax.convert_element_type(x, np.bool_)},
    I32: {"neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "not": lax.bitwise_not, "square": lax.square,
          "copy": lax.copy_p.bind, **{f"pow{y}": (lambda x, y=y: lax.integer_pow(x, y)) for y in range(0, 5)},
          "to_float32": lambda x: lax.convert_element_type(x, np.float32),
          "to_bool": lambda x: lax.convert_element_type(x, np.bool_)},
    BOOL: {"not": lax.bitwise_not, "copy": lax.copy_p.bind,
           "to_float32": lambda x: lax.convert_element_type(x, np.float32),
           "to_int32": lambda x: lax.convert_element_type(x, np.int32)},
}


_HALVES = np.float32([k + 0.5 for k in range(-40, 40)] + [2.0**e + 0.5 for e in range(1, 23)])
_NEAR_HALVES = np.concatenate([np.nextafter(_HALVES, np.float32(0)), np.nextafter(_HALVES, np.float32(np.inf))])
#: for the unary operations, also many magnitudes of ties and of values just off them
UNARY_SAFE_F32 = np.concatenate([SAFE_F32, _HALVES, -_HALVES, _NEAR_HALVES, -_NEAR_HALVES])
UNARY_ALL_F32 = np.concatenate([EDGE_F32, UNARY_SAFE_F32])


def _unary_cases():
    for dtype, ops in UNARY.items():
        for name in ops:
            yield pytest.param(dtype, name, id=f"{name}-{dtype.name}")


@pytest.mark.parametrize("dtype,name", list(_unary_cases()))
def test_unary(dtype, name):
    op = UNARY[dtype][name]
    safe, everything = (UNARY_SAFE_F32, UNARY_ALL_F32) if dtype == F32 else (SAFE[dtype], ALL[dtype])
    closed = jax.make_jaxpr(op)(everything)
    compare(closed, everything, path=None)
    compare(closed, np.resize(safe, everything.shape), path="numpy")
    if dtype == F32:  # subnormal inputs, which XLA reads as zeros (and copies as they are)
        compare(closed, np.concatenate([SUBNORMAL_F32, everything[SUBNORMAL_F32.size:]]),
                path="numpy" if name in exact_ops.MOVES else "jax")
        everything = np.concatenate([everything, SUBNORMAL_F32])
    some = np.concatenate([everything[:4], RNG.choice(everything, 8), everything[-2:]])
    closed = jax.make_jaxpr(op)(np.zeros((), dtype))
    for value in some:
        compare(closed, np.asarray(value, dtype), path=None)


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_empty_arrays(shape):
    x, n = np.zeros(shape, F32), np.zeros(shape, I32)
    for op, args, path in [(lax.div, (x, x), "numpy"), (lambda a: lax.round(a, 0) / 2.0, (x,), "numpy"),
                           (lax.lt, (n, n), "numpy"), (lax.exp, (x,), "jax"),
                           (lambda a: lax.select_n(a > 0, a, -a), (x,), "numpy"),
                           (lambda a: lax.convert_element_type(a, np.int32), (x,), "numpy")]:
        compare(jax.make_jaxpr(op)(*args), *args, path=path)


@pytest.mark.parametrize("name", [n for n in UNARY[F32] if n != "copy"])
def test_unary_table_functions_on_random_bits(name):
    """Each element through the table function alone (so one declined element does not hide the
    others), against XLA on the whole array."""
    op = UNARY[F32][name]
    length = UNARY_ALL_F32.size  # test_unary's program
    closed = jax.make_jaxpr(op)(np.zeros(length, F32))
    eqn = closed.jaxpr.eqns[0]
    params = {k: eqn.params[k] for k in exact_ops.PARAMS.get(eqn.primitive.name, ()) if k in eqn.params}
    x = random_floats(length)
    x[::4] = RNG.normal(0, 2.0 ** RNG.integers(-20, 40, x[::4].size)).astype(np.float32)  # integers, ties
    with np.errstate(all="ignore"):
        x[::7] = np.round(x[::7]) + np.float32(0.5)
    x = no_subnormals(x)
    want = np.asarray(JAX.run(closed.jaxpr, closed.consts, x)[0])
    got, kept = np.zeros_like(want), np.zeros(length, bool)
    for i, value in enumerate(x):
        out = table_result(eqn.primitive.name, x[i:i + 1], **params)
        if out is not None:
            got[i], kept[i] = out[0], True
    assert kept.mean() > 0.3
    assert_agrees_unless_flushed(got[kept], want[kept], (x[kept],))


def test_float_to_int_saturates():
    """XLA truncates toward zero, gives 0 for NaN and the nearest limit outside int32's range."""
    closed = jax.make_jaxpr(lambda x: lax.convert_element_type(x, np.int32))(np.zeros(4, np.float32))
    for outside in [np.nan, -np.nan, np.inf, -np.inf, 2.0**31, -2.0**31 - 256, 3e38, -3e38]:
        x = np.float32([1.5, -2.5, outside, 0.0])
        compare(closed, x, path="numpy")
    compare(closed, np.float32([2.0**31 - 128, -2.0**31, -0.0, -0.99]), path="numpy")
    x = np.float32([np.nan, np.inf, -np.inf, 2.0**31, -2.0**32, 2.0**31 - 128])
    want = np.int32([0, 2**31 - 1, -2**31, 2**31 - 1, -2**31, 2**31 - 128])
    assert_same(JAX.run(jax.make_jaxpr(lambda a: a.astype(jnp.int32))(x).jaxpr, [], x)[0], want)
    scalar = jax.make_jaxpr(lambda x: lax.convert_element_type(x, np.int32))(np.float32(0))
    for value in x:
        compare(scalar, value, path="numpy")


def test_negative_powers_of_tiny_products_go_to_jax():
    """x * x is subnormal: XLA flushes it and 1 / 0 is inf; NumPy's 1 / subnormal is finite."""
    x = np.float32([2.0**-64, -(2.0**-64), 1.0, 2.0**-70])
    for y in (-2, -3, -4):
        closed = jax.make_jaxpr(lambda a: lax.integer_pow(a, y))(x)
        compare(closed, x, path="jax")
    out = JAX.run(closed.jaxpr, closed.consts, x)[0]
    assert np.isinf(np.asarray(out)[0])


def test_rounding_ties():
    """Both rounding methods at every magnitude where float32 holds halves."""
    halves = np.float32([m * 2.0**e + 0.5 for e in range(0, 23) for m in (1, 3, 5)])
    x = np.concatenate([halves, -halves, np.float32([0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -0.0, 0.0])])
    for method in (0, 1):
        closed = jax.make_jaxpr(lambda a: lax.round(a, method))(x)
        compare(closed, x, path="numpy")
        assert closed.jaxpr.eqns[0].params["rounding_method"] == method


# --- select_n and clamp ---------------------------------------------------------------------

def test_select_n_bool():
    x, y = grid(np.concatenate([ALL_F32[::3], SUBNORMAL_F32]))
    which = RNG.random(x.shape) < 0.5
    closed = jax.make_jaxpr(lax.select_n)(which, x, y)
    compare(closed, which, x, y, path=None)
    sx, sy = grid(SAFE_F32[::2])
    which = RNG.random(sx.shape) < 0.5
    compare(jax.make_jaxpr(lax.select_n)(which, sx, sy), which, sx, sy, path="numpy")
    scalar = jax.make_jaxpr(lax.select_n)(np.bool_(True), sx, sy)
    for w in (False, True):
        compare(scalar, np.bool_(w), sx, sy, path="numpy")
    for dtype, values in ((I32, ALL_I32), (BOOL, ALL_BOOL)):
        a, b = grid(values)
        which = RNG.random(a.shape) < 0.5
        compare(jax.make_jaxpr(lax.select_n)(which, a, b), which, a, b, path="numpy")


@pytest.mark.parametrize("cases", [1, 2, 3, 4])
def test_select_n_int32(cases):
    x = np.stack([RNG.permutation(SAFE_F32) for _ in range(cases)])
    which = RNG.integers(0, cases, x.shape[1]).astype(np.int32)
    closed = jax.make_jaxpr(lax.select_n)(which, *x)
    compare(closed, which, *x, path="numpy")
    for outside in (-1, cases, 2**31 - 1, -2**31):
        bad = which.copy()
        bad[3] = outside
        compare(closed, bad, *x, path="jax")
    scalar = jax.make_jaxpr(lax.select_n)(np.int32(0), *x)
    for w in range(cases):
        compare(scalar, np.int32(w), *x, path="numpy")
    compare(scalar, np.int32(cases), *x, path="jax")


def test_clamp():
    x = np.concatenate([ALL_F32, SUBNORMAL_F32])
    bounds = [(0.0, 1.0), (-0.0, 0.0), (0.0, -0.0), (-1.0, -0.0), (-np.inf, np.inf), (2.0, 1.0),
              (1.0, 1.0), (-0.0, -0.0), (0.0, 0.0), (-3.5, 2.0**31)]
    closed = jax.make_jaxpr(lax.clamp)(np.float32(0), x, np.float32(0))
    for lo, hi in bounds:
        compare(closed, np.float32(lo), x, np.float32(hi), path=None)
    safe = SAFE_F32
    closed_safe = jax.make_jaxpr(lax.clamp)(np.float32(0), safe, np.float32(0))
    for lo, hi in bounds:
        compare(closed_safe, np.float32(lo), safe, np.float32(hi), path="numpy")
    for lo, hi in [(np.nan, 1.0), (0.0, np.nan), (np.nan, np.nan)]:
        compare(closed_safe, np.float32(lo), safe, np.float32(hi), path="jax")
    # bounds as arrays of the operand's shape, with NaN among them
    lo, hi = RNG.permutation(ALL_F32), RNG.permutation(ALL_F32)
    n = ALL_F32.size
    compare(jax.make_jaxpr(lax.clamp)(lo, ALL_F32, hi), lo, ALL_F32, hi, path=None)
    lo, hi = np.sort(RNG.permutation(SAFE_F32)[:n]), RNG.permutation(SAFE_F32)
    lo, hi = lo[~np.isnan(lo)], hi[~np.isnan(hi)][:lo.size]
    compare(jax.make_jaxpr(lax.clamp)(lo, lo, hi), lo, RNG.permutation(lo), hi, path="numpy")
    # integers, and literal bounds
    a = ALL_I32
    compare(jax.make_jaxpr(lax.clamp)(np.int32(0), a, np.int32(0)), np.int32(-5), a, np.int32(2**20),
            path="numpy")
    compare(jax.make_jaxpr(lambda v: lax.clamp(np.float32(-1), v, np.float32(1)))(safe), safe, path="numpy")
    compare(jax.make_jaxpr(lambda v: lax.clamp(-0.0, v, 0.0))(safe), safe, path="numpy")


# --- data movement --------------------------------------------------------------------------

MOVES = [
    ("broadcast_in_dim", (3,), lambda x: lax.broadcast_in_dim(x, (2, 3), (1,))),
    ("broadcast_in_dim", (3,), lambda x: lax.broadcast_in_dim(x, (3, 2), (0,))),
    ("broadcast_in_dim", (), lambda x: lax.broadcast_in_dim(x, (2, 3), ())),
    ("broadcast_in_dim", (1, 3), lambda x: lax.broadcast_in_dim(x, (4, 3), (0, 1))),
    ("broadcast_in_dim", (3, 1), lambda x: lax.broadcast_in_dim(x, (3, 4, 5), (0, 2))),
    ("broadcast_in_dim", (2, 3), lambda x: lax.broadcast_in_dim(x, (2, 4, 3), (0, 2))),
    ("broadcast_in_dim", (4,), lambda x: lax.expand_dims(x, (0, 2))),
    ("reshape", (6,), lambda x: lax.reshape(x, (2, 3))),
    ("reshape", (2, 3), lambda x: lax.reshape(x, (3, 2))),
    ("reshape", (2, 3, 4), lambda x: lax.reshape(x, (4, 6))),
    ("reshape", (), lambda x: lax.reshape(x, (1, 1))),
    ("reshape", (1,), lambda x: lax.reshape(x, ())),
    ("squeeze", (1, 3, 1), lambda x: lax.squeeze(x, (0, 2))),
    ("squeeze", (3, 1), lambda x: lax.squeeze(x, (1,))),
    ("squeeze", (1,), lambda x: lax.squeeze(x, (0,))),
    ("transpose", (2, 3), lambda x: lax.transpose(x, (1, 0))),
    ("transpose", (2, 3, 4), lambda x: lax.transpose(x, (2, 0, 1))),
    ("transpose", (1, 2, 3), lambda x: lax.transpose(x, (1, 2, 0))),
    ("slice", (4, 6), lambda x: x[1:3]),
    ("slice", (4, 6), lambda x: lax.slice(x, (0, 1), (4, 6), (3, 2))),
    ("slice", (5,), lambda x: lax.slice(x, (2,), (2,))),
    ("slice", (7,), lambda x: lax.slice(x, (1,), (7,), (4,))),
    ("rev", (4, 6), lambda x: x[::-1]),
    ("rev", (2, 3, 4), lambda x: lax.rev(x, (0, 2))),
    ("concatenate", (2, 3), lambda x: lax.concatenate([x, x, x], 1)),
    ("concatenate", (3,), lambda x: lax.concatenate([x, x], 0)),
    ("stack", (2, 3), lambda x: jnp.stack([x, x], axis=1)),
    ("stack", (), lambda x: jnp.stack([x, x, x])),
    *[("pad", shape, lambda x, c=config: lax.pad(x, np.ones((), x.dtype), c)) for shape, config in [
        ((5,), ((1, 2, 0),)), ((5,), ((0, 0, 1),)), ((5,), ((-2, -1, 2),)), ((1,), ((-1, 1, 3),)),
        ((3, 4), ((-1, 2, 1), (2, -1, 0))), ((3, 4), ((1, 1, 2), (-2, 0, 3))), ((0, 2), ((1, 1, 1), (0, 0, 0)))]],
]


#: the first case of each operation is also run at int32 and bool
_EVERY_DTYPE = {name: n for n, (name, _, _) in reversed(list(enumerate(MOVES)))}


@pytest.mark.parametrize("case", [pytest.param(n, id=f"{m[0]}-{'x'.join(map(str, m[1]))}")
                                  for n, m in enumerate(MOVES)])
def test_data_movement(case):
    name, shape, op = MOVES[case]
    values = np.resize(RNG.permutation(SAFE_F32), shape)
    closed = jax.make_jaxpr(op)(values)
    assert [e.primitive.name for e in closed.jaxpr.eqns] == [name]
    compare(closed, values, path="numpy")
    compare(closed, np.resize(RNG.permutation(np.concatenate([SUBNORMAL_F32, EDGE_F32])), shape))
    if _EVERY_DTYPE[name] == case:
        for dtype, pool in ((I32, ALL_I32), (BOOL, ALL_BOOL)):
            values = np.resize(RNG.permutation(pool), shape)
            compare(jax.make_jaxpr(op)(values), values, path="numpy")


def test_pad_value_and_concatenation_of_different_arrays():
    x = np.resize(SAFE_F32, (3, 4))
    closed = jax.make_jaxpr(lambda a, v: lax.pad(a, v, ((1, -1, 1), (2, 0, 0))))(x, np.float32(0))
    for value in (0.0, -0.0, np.nan, -np.inf, 2.5):
        compare(closed, x, np.float32(value), path="numpy")
    compare(closed, x, np.float32(SUBNORMAL_F32[0]), path="jax")
    closed = jax.make_jaxpr(lambda a, b, c: lax.concatenate([a, b, c], 1))(x, x[:, :1], x[:, :0])
    compare(closed, x, -x[:, :1], x[:, :0], path="numpy")
    n, m = np.resize(ALL_I32, (2, 5)), np.resize(ALL_I32[::-1], (3, 5))
    compare(jax.make_jaxpr(lambda a, b: lax.concatenate([a, b], 0))(n, m), n, m, path="numpy")


def test_reshape_with_dimensions_goes_to_jax():
    x = np.resize(SAFE_F32, (2, 3))
    closed = jax.make_jaxpr(lambda a: lax.reshape(a, (6,), dimensions=(1, 0)))(x)
    assert closed.jaxpr.eqns[-1].params["dimensions"] == (1, 0)
    assert compare(closed, x, path="jax") == ["reshape"]


# --- identities and reductions whose order does not matter ----------------------------------

def test_sums_of_cotangents_and_stopped_gradients():
    """``add_any`` (JAX's sum of two cotangents) is an addition; ``stop_gradient`` the identity on
    values: both computed here; the addition is still JAX's on a subnormal or a NaN, the
    identity copies them as XLA does."""
    x, y = grid(SAFE_F32)
    closed = jax.make_jaxpr(lambda a, b: jax.grad(lambda u: jnp.sum(u * b + u * u))(a))(x, y)
    assert "add_any" in _names(closed.jaxpr)
    compare(closed, x, y, path="numpy")
    closed = jax.make_jaxpr(lambda a: lax.stop_gradient(a))(x)
    assert _names(closed.jaxpr) == ["stop_gradient"]
    compare(closed, x, path="numpy")
    for pool in (SUBNORMAL_F32, NAN_F32):
        assert not compare(closed, np.resize(pool, x.shape))
        tiny = np.resize(pool, x.shape)
        assert compare(jax.make_jaxpr(lambda a, b: a + b)(tiny, x), tiny, x, path="jax") == ["add"]
    compare(jax.make_jaxpr(lambda a: lax.stop_gradient(a))(ALL_I32), ALL_I32, path="numpy")


#: (shape, axes) of the reductions tried, the empty reductions among them
REDUCTIONS = [((12,), (0,)), ((4, 6), (1,)), ((4, 6), (0,)), ((4, 6), (0, 1)), ((2, 3, 4), (0, 2)),
              ((3, 4), ()), ((), ()), ((0, 3), (1,)), ((3, 0), (1,)), ((0,), (0,))]


@pytest.mark.parametrize("name", ["reduce_max", "reduce_min"])
@pytest.mark.parametrize("shape,axes", REDUCTIONS)
def test_greatest_and_least(name, shape, axes):
    """A maximum or minimum is one of its inputs whatever the order: computed here unless it
    is a zero among zeros of both signs (the order decides which comes out), a subnormal or a
    NaN is among them, or nothing is."""
    reduce = {"reduce_max": lax.reduce_max_p.bind, "reduce_min": lax.reduce_min_p.bind}[name]
    empty = any(shape[a] == 0 for a in axes)
    nonzero = SAFE_F32[SAFE_F32 != 0]
    for pool, path in ((nonzero, "numpy"), (EDGE_F32, None), (SAFE_F32, None),
                       (SUBNORMAL_F32, None), (np.concatenate([nonzero, NAN_F32]), None),
                       (ALL_I32, "numpy"), (ALL_BOOL, "numpy")):
        for _ in range(3):
            x = np.resize(RNG.permutation(pool), shape)
            closed = jax.make_jaxpr(lambda a: reduce(a, axes=axes))(x)
            assert _names(closed.jaxpr) == [name]
            compare(closed, x, path="jax" if empty else path)
    # zeros of both signs, which XLA's order decides between, go to JAX where a zero is the
    # result; zeros of one sign, or beside the result, are computed here
    if not empty and np.prod(shape):
        for values, path in (([0.0, -0.0, -1.0], "jax" if axes else "numpy"), ([0.0, -1.0, 2.0], "numpy"),
                             ([-0.0, -1.0, 2.0], "numpy"), ([-0.0, 0.0, 2.0, -2.0], None)):
            x = np.resize(np.float32(values if name == "reduce_max" else [-v for v in values]), shape)
            x = np.ascontiguousarray(RNG.permutation(x.reshape(-1)).reshape(shape))
            compare(jax.make_jaxpr(lambda a: reduce(a, axes=axes))(x), x, path=path)


@pytest.mark.parametrize("shape,axes", REDUCTIONS)
def test_all_and_any(shape, axes):
    for fn in (jnp.all, jnp.any):
        for pool in (ALL_BOOL, np.array([True]), np.array([False])):
            x = np.resize(RNG.permutation(pool), shape)
            closed = jax.make_jaxpr(lambda a: fn(a, axis=axes))(x)
            compare(closed, x, path="numpy" if axes else None)
    n = np.resize(ALL_I32, shape)  # bitwise on integers: JAX's
    if axes and np.prod(shape):
        compare(jax.make_jaxpr(lambda a: lax.reduce_and_p.bind(a, axes=axes))(n), n, path="jax")


def test_finiteness():
    closed = jax.make_jaxpr(jnp.isfinite)(ALL_F32)
    assert _names(closed.jaxpr) == ["is_finite"]
    compare(closed, ALL_F32, path="numpy")
    x = np.concatenate([SUBNORMAL_F32, NAN_F32, np.float32([np.inf, -np.inf, 0.0])])
    compare(jax.make_jaxpr(jnp.isfinite)(x), x, path="numpy")


# --- whole programs -------------------------------------------------------------------------

@jax.custom_vjp
def ste_round(x):
    return jnp.round(x)


def _ste_fwd(x):
    return jnp.round(x), x


def _ste_bwd(x, g):
    return (jnp.where(jnp.abs(x) <= 4.0, g, 0.0),)


ste_round.defvjp(_ste_fwd, _ste_bwd)


def fake_quant(x, scale):
    q = jnp.clip(jnp.round(x / scale), -128, 127)
    y = q * scale
    z = jnp.where(x > 0, y, -x * 0.5)
    r = jax.nn.relu(z - 1.0) + jax.nn.relu6(x) + jnp.maximum(x, 0.0) - jnp.minimum(x, -0.0)
    m = (x >= scale).astype(jnp.float32) + jnp.sign(x) * jnp.floor(x) - jnp.ceil(x / 3) + x ** 2
    s = ste_round(x * 2.0) / 2.0 + jnp.sqrt(jnp.abs(x)) * (x != x).astype(jnp.float32)
    n = (x * 7).astype(jnp.int32) // 3 + jnp.abs((x * 5).astype(jnp.int32))
    return y, z, r, m, s, n, x.reshape(8, -1).T[None] * scale, jnp.tanh(x) + jnp.exp(-(x * x))


PROGRAM_INPUTS = [
    (RNG.normal(0, 3, 64).astype(np.float32), np.float32(0.1)),
    (RNG.normal(0, 300, 64).astype(np.float32), np.float32(2.5)),
    (np.resize(SAFE_F32, 64), np.float32(3.0)),
    (np.resize(np.concatenate([EDGE_F32, SUBNORMAL_F32]), 64), np.float32(0.5)),
    (np.resize(SAFE_F32[::-1], 64), np.float32(TINY)),
    (np.resize(SAFE_F32, 64), np.float32(-0.0)),
    (np.resize(SAFE_F32, 64), np.float32(np.nan)),
]


def _names(jaxpr):
    return [eqn.primitive.name for eqn in jaxpr.eqns]


def compare_program(fn, *args, numpy_ops=True):
    """The program's outputs under the NumPy evaluator, under JAX and under ``eval_jaxpr``."""
    closed = jax.make_jaxpr(fn)(*args)
    bound = compare(closed, *args)
    plain = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
    for got, want in zip(NUMPY.run(closed.jaxpr, closed.consts, *args), plain):
        assert_same(got, want, args)
    if numpy_ops:  # some of the program's operations were computed in NumPy
        assert len(bound) < len(closed.jaxpr.eqns), bound
    return closed, bound


@pytest.mark.parametrize("case", range(len(PROGRAM_INPUTS)))
def test_program(case):
    x, scale = PROGRAM_INPUTS[case]
    compare_program(fake_quant, x, scale, numpy_ops=case != 3)


@pytest.mark.parametrize("case", [0, 3, 5])
def test_program_derivatives(case):
    """The backward pass of a custom_vjp function and of custom_jvp functions (relu), and the
    custom_vjp function called without differentiation."""
    x, scale = PROGRAM_INPUTS[case]
    numpy_ops = case != 3  # subnormal inputs send every operation to JAX

    def loss(v):
        return jnp.sum(ste_round(v / scale) * scale + jax.nn.relu(v) * v)

    def backward(v, g):
        out, pull = jax.vjp(lambda u: ste_round(u * 3.0) + jax.nn.relu(u) / scale, v)
        return (out, *pull(g))

    closed, _ = compare_program(lambda v: ste_round(v) * 2.0 + 1.0, x, numpy_ops=numpy_ops)
    assert "custom_vjp_call" in _names(closed.jaxpr)
    closed, _ = compare_program(lambda v: jax.nn.relu(v) - v, x, numpy_ops=numpy_ops)
    assert "custom_jvp_call" in _names(closed.jaxpr)
    compare_program(jax.grad(loss), x, numpy_ops=numpy_ops)
    compare_program(backward, x, np.resize(SAFE_F32, x.shape), numpy_ops=numpy_ops)


# --- what goes to JAX -----------------------------------------------------------------------

def test_operations_outside_the_table_are_bound():
    x = RNG.normal(0, 2, (4, 8)).astype(np.float32)

    def program(v):
        body = lambda c, row: (c + row, jnp.tanh(row))
        carry, ys = lax.scan(body, jnp.zeros(8, jnp.float32), v)
        inner = jax.jit(lambda u: u * 2.0 + 1.0)(v)
        return jnp.exp(v), jnp.sum(v, axis=(0, 1)), v @ v.T, carry, ys, inner

    closed = jax.make_jaxpr(program)(x)
    bound = compare_program(program, x, numpy_ops=False)[1]
    for name in ("exp", "reduce_sum", "dot_general", "scan", "jit"):
        assert name in bound, (name, bound)
    assert "exp" in _names(closed.jaxpr)


class Garbage(np.ndarray):
    """A NumPy subclass whose ufuncs answer nonsense: the evaluator must never compute with it."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        shape = max((getattr(i, "shape", ()) for i in inputs), key=len)
        return np.full(shape, 12345.0, np.float32)

    def __array_function__(self, func, types, args, kwargs):
        return np.full(self.shape, 12345.0, np.float32)


def test_a_numpy_subclass_goes_to_jax():
    c = np.arange(8, dtype=np.float32) - 3.5
    x = np.resize(SAFE_F32, 8)
    closed = jax.make_jaxpr(lambda v: jnp.maximum(v + c, v * c))(x)
    assert closed.jaxpr.constvars  # c is a constant of the program
    plain = JAX.run(closed.jaxpr, closed.consts, x)
    garbage = c.view(Garbage)
    assert (np.add(garbage, 1.0) == 12345.0).all()  # it does answer nonsense
    NUMPY.bound.clear()
    for got, want in zip(NUMPY.run(closed.jaxpr, [garbage], x), plain):
        assert_same(got, want)
    assert {"add", "mul"} <= set(NUMPY.bound)
    # as an input too
    closed = jax.make_jaxpr(lambda a, b: a * b - 1.0)(x, c)
    NUMPY.bound.clear()
    got = NUMPY.run(closed.jaxpr, closed.consts, x, garbage)
    assert_same(got[0], x * c - np.float32(1.0))
    assert NUMPY.bound[0] == "mul"
    assert not (np.asarray(got[0]) == 12345.0).any()


F16 = np.dtype(np.float16)
#: every float16 there is, but the NaNs: 63,490 values (each sign of zero once)
ALL_F16 = np.arange(1 << 16, dtype=np.uint16).view(F16)
ALL_F16 = ALL_F16[~np.isnan(ALL_F16)]
HALF_TINY = float(np.finfo(np.float16).tiny)
#: float16 values whose sums, differences and products are normal, zero or infinite
SAFE_F16 = ALL_F16[(np.abs(ALL_F16) >= 2.0**-7) | (ALL_F16 == 0)]


def test_float16_operations_round_once():
    """Sums, differences and products of float16 values round once to float16, in NumPy as in
    XLA; every value, including infinities, against XLA."""
    x = RNG.permutation(ALL_F16)
    y = RNG.permutation(ALL_F16)
    for op in (lax.add, lax.sub, lax.mul, lax.lt, lax.eq, lax.ge,
               lambda a, b: jax.grad(lambda u: jnp.sum(u * b + u))(a)):
        compare(jax.make_jaxpr(op)(x, y), x, y, path=None)
    safe = RNG.permutation(SAFE_F16)
    other = RNG.permutation(SAFE_F16)
    closed = jax.make_jaxpr(lambda a, b: (a + b, a - b, a * b, a < b, a == b))(safe, other)
    assert compare(closed, safe, other, path=None) != _names(closed.jaxpr)  # most in NumPy
    small = safe[(safe >= 0.5) & (safe < 4.0)]  # sums and products far from the subnormals
    closed = jax.make_jaxpr(lambda a, b: (a + b, a * b, a <= b, -a, jnp.isfinite(a)))(small, small[::-1])
    compare(closed, small, small[::-1], path="numpy")


def test_float16_conversions_and_moves():
    everything = ALL_F16
    for op in (lambda a: a.astype(jnp.float32), lax.neg, jnp.isfinite, lambda a: a.reshape(-1, 2).T,
               lambda a: lax.stop_gradient(a), lambda a: jnp.where(a > 1.0, a, -a)):
        compare(jax.make_jaxpr(op)(everything), everything, path=None)
    normal = everything[(np.abs(everything) >= 2 * HALF_TINY) | (everything == 0)]
    normal = normal[:normal.size // 2 * 2]
    for op in (lambda a: a.astype(jnp.float32), lax.neg, lambda a: a.reshape(-1, 2).T):
        compare(jax.make_jaxpr(op)(normal), normal, path="numpy")
    # float32 to float16: each value, the halfway points between float16s and the overflow
    wide = np.concatenate([everything.astype(np.float32), RNG.normal(0, 100, 4096).astype(np.float32),
                           np.float32([65504.0, 65519.0, 65520.0, 65536.0, 1e9, np.inf, -0.0])])
    h = SAFE_F16[np.isfinite(SAFE_F16)].astype(np.float32)
    h.sort()
    halfway = (h[:-1] + (h[1:] - h[:-1]) / np.float32(2)).astype(np.float32)
    for values in (wide, halfway, np.nextafter(halfway, np.float32(np.inf)),
                   np.nextafter(halfway, np.float32(-np.inf))):
        compare(jax.make_jaxpr(lambda a: a.astype(jnp.float16))(values), values, path=None)
    compare(jax.make_jaxpr(lambda a: a.astype(jnp.float16))(halfway[np.abs(halfway) > 1e-3]),
            halfway[np.abs(halfway) > 1e-3], path="numpy")


def test_float16_leaves_the_rest_to_jax():
    x = RNG.permutation(SAFE_F16[np.abs(SAFE_F16) < 4.0])
    for op, name in ((lambda a: a / a, "div"), (lambda a: a ** 3, "integer_pow"),
                     (lambda a: jnp.maximum(a, a), "max"), (lambda a: a.astype(jnp.int32), "convert_element_type"),
                     (lambda a: jnp.exp(a), "exp")):
        closed = jax.make_jaxpr(op)(x)
        assert name in compare(closed, x, path="jax")
    n = np.int32([1, 2049, 4097, 65519, 70000, -3])
    closed = jax.make_jaxpr(lambda a: a.astype(jnp.float16))(n)
    assert compare(closed, n, path="jax") == ["convert_element_type"]
    tiny = np.float16([HALF_TINY, HALF_TINY / 4, 1.0, 2.0])  # the smallest normal and a subnormal
    assert "add" in compare(jax.make_jaxpr(lambda a: a + a)(tiny), tiny, path="jax")


@pytest.mark.parametrize("dtype", ["bfloat16", "int8", "uint32"])
def test_other_dtypes_go_to_jax(dtype):
    x = np.resize(np.float32([1.5, -2.5, 0.0, 3.0, 100.0, -0.5]), (6,)).astype(jnp.dtype(dtype))
    closed = jax.make_jaxpr(lambda a: (a * a, a == a, a.astype(jnp.float32), a.reshape(2, 3)))(x)
    bound = compare(closed, x, path="jax")
    names = [n for n in _names(closed.jaxpr) if n != "convert_element_type"]
    assert [n for n in bound if n != "convert_element_type"] == names
    # a float32 converted to the dtype
    closed = jax.make_jaxpr(lambda a: a.astype(jnp.dtype(dtype)))(np.float32([1.5, 300.0, -2.0]))
    assert compare(closed, np.float32([1.5, 300.0, -2.0]), path="jax") == ["convert_element_type"]


def test_float64_goes_to_jax():
    with jax.enable_x64(True):
        x = np.float64([1.5, -2.5, 1e-310, 0.1, 2.0**60])
        closed = jax.make_jaxpr(lambda a: (a + a, a / 3.0, a * a, jnp.floor(a), a < 1.0,
                                           a.astype(jnp.float32), lax.convert_element_type(x, jnp.int32)))(x)
        bound = compare(closed, x, path="jax")
        assert {"add", "div", "mul", "floor", "lt"} <= set(bound)
        n = np.int64([2**40, -3])
        closed = jax.make_jaxpr(lambda a: (a + 1, a * a))(n)
        assert compare(closed, n, path="jax") == ["add", "mul"]


def test_arrays_of_more_dimensions_than_numpy_holds_go_to_jax():
    """JAX's arrays may have more dimensions than NumPy's (64): such an operation is bound."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    ones = (1,) * 63

    def f(a):
        high = (a * 2.0).reshape(2, 3, *ones) + 1.0  # 65 dimensions
        return (high * high).reshape(2, 3) - a, a + 1.0

    closed = jax.make_jaxpr(f)(x)
    bound = compare(closed, x, path="jax")
    assert {"reshape", "add", "mul"} <= set(bound)
    assert bound.count("add") == 1  # the two-dimensional addition is NumPy's


# --- unused results -------------------------------------------------------------------------

def test_an_unused_primal_value_is_not_computed():
    """``jax.grad`` leaves the loss itself in the program, its result unused (``_``), and what
    only the loss reads: XLA would drop all of it, and so does the evaluator; the gradient is
    eval_jaxpr's, bit for bit."""
    x = RNG.normal(0, 2, 64).astype(np.float32)
    loss = lambda v: jnp.sum(jnp.tanh(v) * v) + jnp.sum(jnp.exp(v))
    closed = jax.make_jaxpr(jax.grad(loss))(x)
    assert _names(closed.jaxpr).count("reduce_sum") == 2
    bound = compare_program(jax.grad(loss), x)[1]
    assert "reduce_sum" not in bound, bound
    assert {"tanh", "exp"} <= set(bound)  # read by the gradient: computed
    # under JAX alone (JUDGE_EVALUATOR=jax) everything is bound, as eval_jaxpr binds it
    JAX_ONLY.bound.clear()
    JAX_ONLY.run(closed.jaxpr, closed.consts, x)
    assert JAX_ONLY.bound == _names(closed.jaxpr)


def test_unused_results_that_could_matter_are_still_computed():
    """An operation with an effect, one with a program of its own, one over a large array, a
    matrix product, and any under jax_debug_nans are bound even when nothing reads their
    results."""
    calls = []

    def spy(v):
        calls.append(1)
        return v

    small = np.float32([1.0, np.nan, 2.0])
    big = np.zeros(evaluate.LARGEST + 1, np.float32)

    def program(v, w):
        jax.pure_callback(spy, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
        jax.jit(lambda u: jnp.sum(u))(v)
        jnp.sum(w)
        jnp.sum(v)
        jnp.dot(v, v)  # a product: its work grows faster than its arrays
        return v + 1.0

    closed = jax.make_jaxpr(program)(small, big)
    NUMPY.bound.clear()
    NUMPY.run(closed.jaxpr, closed.consts, small, big)
    assert calls == [1]
    assert NUMPY.bound.count("reduce_sum") == 1 and "jit" in NUMPY.bound, NUMPY.bound
    assert "dot_general" in NUMPY.bound
    with jax.debug_nans(True):
        closed = jax.make_jaxpr(lambda v: (jnp.sum(v), v * 1.0)[1])(small)
        with pytest.raises(FloatingPointError):
            jax.core.eval_jaxpr(closed.jaxpr, closed.consts, small)
        with pytest.raises(FloatingPointError):
            NUMPY.run(closed.jaxpr, closed.consts, small)
