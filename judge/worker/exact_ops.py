"""The operations the evaluator (``evaluate``) computes in NumPy, each with XLA's CPU results
bit for bit where it answers (None where it declines, and JAX computes it): the table of
functions by primitive name, the parameters each takes, and the checks of the values XLA could
flush (subnormals, the smallest normal, NaN). ``evaluate``'s notes say why each is exact.
"""

from __future__ import annotations

import math
import types

import numpy

from .index_ops import gather as _gather, iota as _iota, scatter_add as _scatter_add

#: NumPy's names as they were when the worker loaded this module, before any submission: the
#: evaluator never looks a function up in the numpy module a submission can write to.
np = types.SimpleNamespace(**vars(numpy))

#: The dtypes computed in NumPy; every other dtype goes to JAX.
DTYPES = frozenset({np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_)})
F32 = np.dtype(np.float32)
#: float16: only the operations in ``HALF_OPS`` (see ``evaluate``'s notes)
F16 = np.dtype(np.float16)
_HALF_TINY = np.float16(np.finfo(np.float16).tiny)
_HALF_ABOVE_TINY = np.nextafter(_HALF_TINY, np.float16(1.0))
_TINY = np.float32(np.finfo(np.float32).tiny)
_ABOVE_TINY = np.nextafter(_TINY, np.float32(1.0))
_INT32_LIMIT = np.float32(2.0 ** 31)  # float32 values in [-2**31, 2**31) convert exactly


def _max(a, b):
    if a.dtype != F32:
        return np.maximum(a, b)
    both_zero = (a == 0) & (b == 0)
    # XLA: +0 wins over -0 (a NaN in or out sends the operation to JAX: ``subnormal``)
    return np.where(both_zero, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _min(a, b):
    if a.dtype != F32:
        return np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a), a, b), np.minimum(a, b))


def _sign(x):
    if x.dtype != F32:
        return np.sign(x)
    return np.where(x == 0, x, np.sign(x))  # keeps -0.0 (and NaN stays NaN)


def _round(x, rounding_method=0):
    if x.dtype != F32:
        return None
    if int(rounding_method) == 1:  # to nearest, ties to even
        return np.rint(x)
    whole = np.trunc(x)  # ties away from zero; x - trunc(x) is exact
    away = np.abs(x - whole) >= np.float32(0.5)
    return np.where(away, whole + np.copysign(np.float32(1.0), x), whole)


def _div(a, b):
    if a.dtype != F32:
        return None  # integer division: XLA's own rules
    if a.shape != b.shape and b.size < np.broadcast(a, b).size:  # (the result's size)
        # XLA rewrites A / broadcast(B) as A * broadcast(1 / B): an array divided by a scalar,
        # or by a divisor whose axes of extent 1 are broadcast ((n, d) by (n, 1) or (1, d))
        reciprocal = np.divide(np.float32(1.0), b)
        return None if flushed([reciprocal]) else np.multiply(a, reciprocal)
    return np.divide(a, b)


def _integer_pow(x, y):
    """Square and multiply, in JAX's order (``lax._integer_pow``), then the reciprocal for a
    negative power. XLA flushes each product that is tiny, so one that NumPy leaves subnormal
    (or rounds up to the smallest normal) sends the operation to JAX."""
    y = int(y)
    if y == 0:
        return np.ones_like(x)
    if abs(y) > 64 or (y < 0 and x.dtype != F32):
        return None
    n, acc, steps = abs(y), None, []
    while n > 0:
        if n & 1:
            acc = x if acc is None else np.multiply(acc, x)
            steps.append(acc)
        n >>= 1
        if n > 0:
            x = np.multiply(x, x)
            steps.append(x)
    if flushed(steps):
        return None
    return np.divide(np.float32(1.0), acc) if y < 0 else acc.copy()


def _sqrt(x):
    return np.sqrt(x) if x.dtype == F32 else None


def _reduce_extreme(ufunc):
    """``reduce_max`` or ``reduce_min`` over ``axes``: the result is one of the inputs, whatever
    the order XLA reduces in, except among zeros of both signs (``max(0.0, -0.0)`` depends on
    the order), so a float32 reduction whose result is a zero where that result's inputs hold
    zeros of both signs goes to JAX; an empty reduction (XLA's identity, an infinity or an
    integer limit) too."""
    def reduce(x, axes):
        axes = tuple(int(a) for a in axes)
        if any(x.shape[a] == 0 for a in axes):
            return None
        if not axes:
            return x.copy()
        out = ufunc.reduce(x, axis=axes)
        if x.dtype == F32:
            zero = x == 0
            if zero.any():
                negative = np.signbit(x)
                both = np.logical_or.reduce(zero & negative, axis=axes) & \
                    np.logical_or.reduce(zero & ~negative, axis=axes)
                if (both & (out == 0)).any():
                    return None
        return out
    return reduce


def _reduce_logical(ufunc):
    """``reduce_and`` or ``reduce_or`` of a bool array over ``axes`` (an empty one gives the
    identity, as in XLA); other dtypes go to JAX (bitwise, not logical)."""
    def reduce(x, axes):
        if x.dtype != np.bool_:
            return None
        axes = tuple(int(a) for a in axes)
        return ufunc.reduce(x, axis=axes) if axes else x.copy()
    return reduce


#: Products an integer ``dot_general`` computed here may take (its terms, all outputs together).
DOT_WORK = 1 << 20


def _dot_general(lhs, rhs, dimension_numbers):
    """XLA's ``dot_general`` where its result does not depend on the order of its sums: a
    float32 one whose contracting extents hold one element (each output is one product,
    rounded once, signed zeros kept, as XLA gives it) or none (each output is ``+0.0``); an
    int32 one of any extent (sums wrap modulo 2**32, in any order). The result's axes are the
    batch axes, then the left operand's free axes, then the right one's."""
    if lhs.dtype != rhs.dtype or lhs.dtype not in (F32, F16, np.dtype(np.int32)):
        return None
    (lc, rc), (lb, rb) = dimension_numbers
    lc, rc, lb, rb = (tuple(int(a) for a in axes) for axes in (lc, rc, lb, rb))
    lf = tuple(a for a in range(lhs.ndim) if a not in lc and a not in lb)
    rf = tuple(a for a in range(rhs.ndim) if a not in rc and a not in rb)
    terms = math.prod(lhs.shape[a] for a in lc)
    batch = tuple(lhs.shape[a] for a in lb)
    left, right = tuple(lhs.shape[a] for a in lf), tuple(rhs.shape[a] for a in rf)
    if terms == 0:
        return np.zeros(batch + left + right, lhs.dtype)
    l_t, r_t = np.transpose(lhs, lb + lf + lc), np.transpose(rhs, rb + rf + rc)
    if terms == 1:
        return np.multiply(l_t.reshape(batch + left + (1,) * len(right)),
                           r_t.reshape(batch + (1,) * len(left) + right))
    if lhs.dtype != np.int32 or math.prod(batch + left + right) * terms > DOT_WORK:
        return None
    wide = np.matmul(l_t.reshape(batch + (math.prod(left), terms)).astype(np.int64),
                     r_t.reshape(batch + (math.prod(right), terms)).astype(np.int64).swapaxes(-1, -2))
    return wide.astype(np.int32).reshape(batch + left + right)  # int64 wraps too: the low 32 bits


def _dot_general_may(avals, dimension_numbers) -> bool:
    """Whether ``_dot_general`` could answer, from the operands' avals alone."""
    lhs, rhs = avals
    if lhs.dtype != rhs.dtype:
        return False
    if lhs.dtype == np.int32:
        return True
    return math.prod(int(lhs.shape[a]) for a in dimension_numbers[0][0]) <= 1


#: A float32 sum over one axis of at most this many terms, of an array of at most
#: ``SEQUENTIAL_SIZE`` elements, is XLA's CPU loop: each output adds its terms one after the
#: other, in order along the axis, starting from ``+0.0`` (``tests/test_evaluator_sequential_sums.py``
#: compares it with XLA on every rank, axis and length up to these bounds). Longer axes and
#: larger arrays XLA sums in an order of its own, and they go to JAX.
SEQUENTIAL_TERMS = 32
SEQUENTIAL_SIZE = 2048


def _sequential(shape, axes) -> bool:
    """Whether a float32 ``reduce_sum`` of an array of ``shape`` over ``axes`` is XLA's
    sequential loop (``SEQUENTIAL_TERMS``)."""
    return len(axes) == 1 and int(shape[axes[0]]) <= SEQUENTIAL_TERMS and math.prod(shape) <= SEQUENTIAL_SIZE


def _reduce_sum_may(avals, axes) -> bool:
    """Whether ``_reduce_sum`` could answer, from the operand's aval alone."""
    shape, axes = tuple(int(d) for d in avals[0].shape), tuple(int(a) for a in axes)
    return (avals[0].dtype == np.int32 or math.prod(shape[a] for a in axes) <= 1
            or (avals[0].dtype == F32 and _sequential(shape, axes)))


def _reduce_sum(x, axes):
    """XLA's ``reduce_sum`` where the order of the sum cannot matter: over axes holding one
    element per output (the element itself, ``-0.0`` kept) or none (``+0.0``), or an int32 one
    (it wraps modulo 2**32); and a float32 one whose order is XLA's sequential loop
    (``SEQUENTIAL_TERMS``): each output's terms added one after the other along the axis,
    every partial sum rounded to float32. XLA flushes a partial sum that is subnormal, so one
    that NumPy leaves subnormal (or rounds to the smallest normal), or that is NaN, sends the
    operation to JAX."""
    axes = tuple(int(a) for a in axes)
    terms = math.prod(x.shape[a] for a in axes)
    shape = tuple(n for a, n in enumerate(x.shape) if a not in axes)
    if terms == 0:
        return np.zeros(shape, x.dtype)
    if terms == 1:
        return x.reshape(shape).copy()
    if x.dtype == F32 and _sequential(x.shape, axes):
        partial = np.add.accumulate(x, axis=axes[0], dtype=F32)  # strictly in order, as XLA's loop
        if flushed([partial]):
            return None
        # XLA starts from +0.0: only a sum of -0.0 alone differs, -0.0 here, +0.0 there
        return np.add(np.take(partial, -1, axis=axes[0]), np.float32(0.0))
    if x.dtype != np.int32:
        return None
    return np.add.reduce(x, axis=axes, dtype=np.int32)


def _select_n(which, *cases):
    if which.dtype == np.bool_ and len(cases) == 2:
        return np.where(which, cases[1], cases[0])
    if which.dtype == np.int32 and which.size and (which.min() < 0 or which.max() >= len(cases)):
        return None  # out of range: XLA's own rule
    if which.dtype != np.int32 or len(cases) > 32:
        return None  # np.choose takes at most 32 choices
    return np.choose(which, cases)


def _clamp(lo, x, hi):
    if x.dtype == F32 and (np.isnan(lo).any() or np.isnan(hi).any()):
        return None
    return _min(_max(x, lo), hi)


def _convert(x, new_dtype, **_):
    new = np.dtype(new_dtype)
    if (F16 in (x.dtype, new)) and not {x.dtype, new} <= {F16, F32}:
        return None  # float16 only to and from the floats: rounding an integer twice is XLA's
    if new not in DTYPES and new != F16:
        return None
    if x.dtype == F32 and new == np.int32:
        high, low = x >= _INT32_LIMIT, x < -_INT32_LIMIT
        inside = ~(high | low | np.isnan(x))
        out = np.trunc(np.where(inside, x, np.float32(0))).astype(np.int32)
        limits = np.iinfo(np.int32)  # XLA saturates; NaN gives 0
        return np.where(high, np.int32(limits.max), np.where(low, np.int32(limits.min), out))
    if new == np.bool_:
        return x != 0
    return x.astype(new)


def _broadcast_in_dim(x, shape, broadcast_dimensions, **_):
    shape = tuple(int(d) for d in shape)
    expanded = [1] * len(shape)
    for axis, size in zip(broadcast_dimensions, x.shape):
        expanded[int(axis)] = size
    return np.broadcast_to(x.reshape(expanded), shape).copy()


def _reshape(x, new_sizes, dimensions=None, **_):
    if dimensions is not None:
        return None
    return x.reshape(tuple(int(d) for d in new_sizes)).copy()


def _slice(x, start_indices, limit_indices, strides=None):
    strides = strides if strides is not None else (1,) * x.ndim
    return x[tuple(slice(int(a), int(b), int(c)) for a, b, c in zip(start_indices, limit_indices, strides))].copy()


def _pad(x, value, padding_config):
    """XLA's pad: ``interior`` copies of the value between elements, then ``low`` and ``high`` at
    the ends, a negative one cropping."""
    config = [tuple(int(n) for n in dim) for dim in padding_config]
    if len(config) != x.ndim or any(interior < 0 for _, _, interior in config):
        return None
    full = [max(lo, 0) + max(hi, 0) + n + max(n - 1, 0) * interior
            for (lo, hi, interior), n in zip(config, x.shape)]
    out = np.full(full, value, dtype=x.dtype)
    out[tuple(slice(max(lo, 0), max(lo, 0) + (n - 1) * (interior + 1) + 1 if n else 0, interior + 1)
              for (lo, _, interior), n in zip(config, x.shape))] = x
    return out[tuple(slice(max(-lo, 0), size - max(-hi, 0)) for (lo, hi, _), size in zip(config, full))].copy()


def _split(x, sizes, axis):
    """XLA's ``split``: consecutive pieces of ``sizes`` along ``axis``, as a list."""
    sizes, axis = [int(n) for n in sizes], int(axis)
    if sum(sizes) != x.shape[axis] or any(n < 0 for n in sizes):
        return None
    bounds = np.cumsum([0, *sizes])
    return [np.take(x, np.arange(a, b), axis=axis) for a, b in zip(bounds[:-1], bounds[1:])]


#: name -> (function of the inputs and the parameters, whether float inputs are operated on).
#: An operation that only moves or selects values never reads a float, so a subnormal passes
#: through it unchanged in XLA too.
_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "eq": np.equal,
           "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
           "ge": np.greater_equal}
_BITWISE = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def table() -> dict:
    table = {}
    for name, ufunc in _BINARY.items():
        table[name] = (lambda a, b, _f=ufunc: _f(a, b), True)
    table["add_any"] = table["add"]  # the sum of two cotangents: JAX binds it as ``add``
    for name, ufunc in _BITWISE.items():
        table[name] = (lambda a, b, _f=ufunc: _f(a, b) if a.dtype != F32 else None, False)
    table.update({
        "div": (_div, True),
        "max": (_max, True),
        "min": (_min, True),
        "neg": (np.negative, False),  # XLA flips the sign bit: a subnormal stays one
        "abs": (np.abs, False),
        "sign": (_sign, True),
        "floor": (lambda x: np.floor(x) if x.dtype == F32 else None, True),
        "ceil": (lambda x: np.ceil(x) if x.dtype == F32 else None, True),
        "round": (_round, True),
        "sqrt": (_sqrt, True),
        "integer_pow": (_integer_pow, True),
        "square": (lambda x: np.multiply(x, x), True),
        "not": (lambda x: np.invert(x) if x.dtype != F32 else None, False),
        "select_n": (_select_n, False),
        "clamp": (_clamp, True),
        "convert_element_type": (_convert, True),
        "broadcast_in_dim": (_broadcast_in_dim, False),
        "reshape": (_reshape, False),
        "squeeze": (lambda x, dimensions: np.squeeze(x, tuple(dimensions)).copy(), False),
        "expand_dims": (lambda x, dimensions: np.expand_dims(x, tuple(dimensions)).copy(), False),
        "transpose": (lambda x, permutation: np.transpose(x, tuple(permutation)).copy(), False),
        "slice": (_slice, False),
        "rev": (lambda x, dimensions: np.flip(x, tuple(int(d) for d in dimensions)).copy(), False),
        "concatenate": (lambda *xs, dimension: np.concatenate(xs, axis=int(dimension)), False),
        "stack": (lambda *xs, axis: np.stack(xs, axis=int(axis)), False),
        "pad": (_pad, False),
        "split": (_split, False),
        "copy": (lambda x: x.copy(), False),
        "copy_p": (lambda x: x.copy(), False),
        "stop_gradient": (lambda x: x.copy(), False),  # on values, the identity
        "is_finite": (lambda x: np.isfinite(x) if x.dtype in (F32, F16) else None, False),
        "reduce_max": (_reduce_extreme(np.maximum), True),
        "reduce_min": (_reduce_extreme(np.minimum), True),
        "reduce_and": (_reduce_logical(np.logical_and), False),
        "reduce_or": (_reduce_logical(np.logical_or), False),
        "dot_general": (_dot_general, True),
        "reduce_sum": (_reduce_sum, True),
        "iota": (_iota, False),
        "gather": (_gather, False),  # moves bits (``index_ops``)
        "scatter-add": (_scatter_add, True),
    })
    return table


#: Parameters passed to a table function, per operation (the others are not needed there).
PARAMS = {"round": ("rounding_method",), "integer_pow": ("y",), "convert_element_type": ("new_dtype",),
          "broadcast_in_dim": ("shape", "broadcast_dimensions"), "reshape": ("new_sizes", "dimensions"),
          "squeeze": ("dimensions",), "expand_dims": ("dimensions",), "transpose": ("permutation",),
          "slice": ("start_indices", "limit_indices", "strides"), "rev": ("dimensions",),
          "concatenate": ("dimension",), "stack": ("axis",), "pad": ("padding_config",),
          "split": ("sizes", "axis"),
          "reduce_max": ("axes",), "reduce_min": ("axes",), "reduce_and": ("axes",),
          "reduce_or": ("axes",), "dot_general": ("dimension_numbers",), "reduce_sum": ("axes",),
          "iota": ("dtype", "shape", "dimension", "sharding"),
          "gather": ("dimension_numbers", "slice_sizes", "mode", "fill_value"),
          "scatter-add": ("dimension_numbers", "mode", "update_jaxpr", "update_consts", "unique_indices")}
#: Operations whose every result element is the bits of an operand's element, or those bits
#: with the sign bit set or cleared: XLA's CPU backend copies them as they are, a subnormal
#: and a NaN's payload included (its flushing and NaN rules are those of arithmetic), and so
#: does NumPy. Their results are not checked for subnormals and NaN (``evaluate``); the next
#: operation that reads floats checks its operands.
MOVES = frozenset({
    "neg", "abs", "select_n", "broadcast_in_dim", "reshape", "squeeze", "expand_dims", "transpose",
    "slice", "rev", "concatenate", "copy", "copy_p", "stop_gradient", "split", "gather"})
#: The comparisons: IEEE's result of comparing a NaN is false (true for ``ne``), whatever its
#: sign and payload, in XLA's CPU code (LLVM's ordered predicates, unordered for ``ne``) as in
#: NumPy, and the result is a bool: a NaN operand does not send one to JAX (a subnormal does:
#: XLA reads it as a zero).
COMPARES = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
#: The operations here with several results (their function gives a list).
MULTIPLE = frozenset({"split"})
#: Operations whose functions answer only for some shapes: name -> a test of the operands'
#: avals and the parameter in ``PARAMS`` (``may(avals, param)``), so that an operation they
#: would decline goes to JAX before its operands are converted and checked.
MAY = {"dot_general": _dot_general_may, "reduce_sum": _reduce_sum_may}
#: The operations computed here on float16 too: each rounds once to float16 (XLA computes them
#: in float32 and rounds, which gives the same float16: float32 holds more than twice float16's
#: digits), or only moves or compares values.
HALF_OPS = frozenset({
    "add", "add_any", "sub", "mul", "neg", "eq", "ne", "lt", "le", "gt", "ge", "is_finite",
    "select_n", "convert_element_type", "broadcast_in_dim", "reshape", "squeeze", "expand_dims",
    "transpose", "slice", "rev", "concatenate", "copy", "copy_p", "stop_gradient", "split", "gather",
    "dot_general", "reduce_sum"})  # of one term per result (``MAY``): one rounding, or none


def subnormal(values, limit=_TINY, nan=True) -> bool:
    """Whether a float32 value is NaN, or nonzero and smaller in magnitude than ``limit`` (a
    float16 value: than float16's smallest normal, or the float16 after it where ``limit`` is
    the float32 after the smallest normal); with ``nan`` false, a NaN does not count.
    (NaN: XLA's sign and payload of a NaN result follow rules of its own, which a submission can
    read back as a value, so every operation that meets or makes one goes to JAX; but for a
    comparison, ``COMPARES``, whose result is a bool.) Shorter ways first, each exact: a single
    element compared as a Python float (which holds it exactly), and an array whose least
    magnitude is at least the bound passed at once (no zero, no NaN: the least of an array
    holding a NaN is NaN, which compares false); any other is checked element by element."""
    for value in values:
        dtype = value.dtype
        if dtype == F32:
            bound = limit
        elif dtype == F16:
            bound = _HALF_TINY if limit is _TINY else _HALF_ABOVE_TINY
        else:
            continue
        size = value.size
        if not size:
            continue
        if size == 1:
            magnitude = abs(value.item())
            if magnitude >= (_BOUNDS.get(id(bound)) or float(bound)) or magnitude == 0.0:
                continue
            if nan or magnitude == magnitude:  # (a NaN is unequal to itself)
                return True
            continue
        magnitude = np.abs(value)
        if np.minimum.reduce(magnitude, axis=None) >= bound:
            continue
        kept = (magnitude >= bound) | (magnitude == 0)
        if not (kept if nan else kept | np.isnan(value)).all():
            return True
    return False


#: Each bound ``subnormal`` compares with, as the Python float of the same value (by ``id``).
_BOUNDS = {id(b): float(b) for b in (_TINY, _ABOVE_TINY, _HALF_TINY, _HALF_ABOVE_TINY)}


def flushed(values) -> bool:
    """Whether XLA could have flushed one of these computed values to zero: a subnormal, or
    the smallest normal, which NumPy reaches by rounding up results that XLA flushes; or
    whether one is NaN."""
    return subnormal(values, _ABOVE_TINY)
