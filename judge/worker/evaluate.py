"""Evaluates a traced program on concrete inputs, with the same results as
``jax.core.eval_jaxpr`` on XLA's CPU backend, bit for bit, and most operations without XLA.

``eval_jaxpr`` binds every operation of the program on concrete arrays: each one at each new
input shape is traced, lowered and compiled (or loaded from the compilation cache) as a program
of its own, and that is most of what a worker spends on a case. Many operations are exact: IEEE
gives one correctly rounded result for an addition, a division, a comparison, a rounding or a
select, and NumPy computes the same one; so are the operations that only move values
(``stop_gradient`` is the identity on values), and the reductions whose result does not depend on
the order of the reduction (a maximum or minimum, ``all`` and ``any``). ``Evaluator.run``
computes those in NumPy and hands every other operation (transcendentals, sums, dots, loops,
jitted calls, callbacks) to JAX exactly as ``eval_jaxpr`` does.

Where NumPy and XLA could differ, the evaluator does as XLA does, or hands the operation to JAX:

* XLA's CPU backend flushes subnormal floats to zero, in its inputs and its results. An
  operation with a subnormal input, or whose NumPy result holds one, is recomputed by JAX. So is
  one whose result holds the smallest normal float, ``2**-126``: NumPy rounds some products and
  quotients below it up to it, where XLA flushes them (``(1 - 2**-24) * 2**-126`` is ``0.0``
  there). A power is computed by XLA's products in JAX's order, each flushed: one whose
  intermediate product is tiny goes to JAX (``x**-2`` is ``inf`` there when ``x * x`` is
  subnormal).
* Only float32, int32 and bool arrays are computed here, and only inputs that are plain NumPy or
  JAX arrays (a constant of a NumPy subclass goes to JAX, as it would have). float16 arrays
  too, in the operations that round once to float16 or only move or compare values
  (``_HALF_OPS``: no division, power, maximum or conversion from an integer, which XLA may
  compute otherwise); a float16 subnormal, the smallest normal float16 or a NaN, in or out,
  sends the operation to JAX, as in float32.
* A float-to-integer conversion truncates, and saturates as XLA's does: NaN gives 0, and a value
  outside int32's range (an infinity too) the nearest of its limits.
* An array divided by a scalar, or by a divisor broadcast along its axes of extent 1, is
  multiplied by the divisor's reciprocal, as XLA rewrites it (not where the broadcast adds no
  element: an array of a single element is divided).
* Signed zeros follow XLA: ``max(0.0, -0.0)`` is ``0.0``, ``min`` the reverse, and
  ``sign(-0.0)`` is ``-0.0``. A float32 maximum or minimum reduced over an array that holds a
  zero goes to JAX: which zero comes out depends on the order XLA reduces in.
* An operation that meets or makes a NaN goes to JAX: the sign and payload of XLA's NaN follow
  rules of its own (``max(0.0, -nan)`` is a positive NaN there), and a program can read them
  back as values.
* An array of more than ``LARGEST`` elements goes to JAX, where one compilation is small beside
  the work; NumPy's temporaries would weigh on the memory limit.
* An operation on an array of more than ``HIGHEST_RANK`` dimensions goes to JAX: JAX's arrays
  may have more dimensions than NumPy's (64 in NumPy 2, 32 before).
* Values are dropped after their last use, as ``eval_jaxpr`` drops them.
* An operation whose results are all unused (``_`` in a printed program: the primal value of a
  ``jax.grad``, say) is not computed at all, as XLA drops it from a compiled program, when it
  is one of ``_PURE`` (no effect, no program of its own, no error on any value, work about
  linear in its arrays) and every array it reads or makes has at most ``LARGEST`` elements: one
  such operation takes milliseconds and a few MB, within any limit. With ``jax_debug_nans`` or
  ``jax_debug_infs`` on, where computing it could raise, it is bound.

With ``jit_inlined`` (the case runner's), calls, branches and loops are evaluated operation
by operation too, as under ``jax.disable_jit`` (``stepwise``).

``tests/test_evaluate.py`` compares every operation here with XLA's on special and random
values. ``uses_numpy=False`` (the judge's ``JUDGE_EVALUATOR=jax``) binds everything, as
``eval_jaxpr`` does.
"""

from __future__ import annotations

import math
import types

import numpy

from . import jaxapi, stepwise

#: NumPy's names as they were when the worker loaded this module, before any submission: the
#: evaluator never looks a function up in the numpy module a submission can write to.
np = types.SimpleNamespace(**vars(numpy))

#: The dtypes computed in NumPy; every other dtype goes to JAX.
_DTYPES = frozenset({np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_)})
_F32 = np.dtype(np.float32)
#: float16: only the operations in ``_HALF_OPS`` (see the module's notes)
_F16 = np.dtype(np.float16)
_HALF_TINY = np.float16(np.finfo(np.float16).tiny)
_HALF_ABOVE_TINY = np.nextafter(_HALF_TINY, np.float16(1.0))
_TINY = np.float32(np.finfo(np.float32).tiny)
_ABOVE_TINY = np.nextafter(_TINY, np.float32(1.0))
_INT32_LIMIT = np.float32(2.0 ** 31)  # float32 values in [-2**31, 2**31) convert exactly
#: Arrays with more elements than this go to JAX: XLA's compilation is small beside the work,
#: and NumPy's temporaries would weigh on the memory limit.
LARGEST = 1 << 20
#: The most dimensions an array computed here may have (NumPy 1 allows 32).
HIGHEST_RANK = 32


def _max(a, b):
    if a.dtype != _F32:
        return np.maximum(a, b)
    both_zero = (a == 0) & (b == 0)
    # XLA: +0 wins over -0 (a NaN in or out sends the operation to JAX: ``_subnormal``)
    return np.where(both_zero, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _min(a, b):
    if a.dtype != _F32:
        return np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a), a, b), np.minimum(a, b))


def _sign(x):
    if x.dtype != _F32:
        return np.sign(x)
    return np.where(x == 0, x, np.sign(x))  # keeps -0.0 (and NaN stays NaN)


def _round(x, rounding_method=0):
    if x.dtype != _F32:
        return None
    if int(rounding_method) == 1:  # to nearest, ties to even
        return np.rint(x)
    whole = np.trunc(x)  # ties away from zero; x - trunc(x) is exact
    away = np.abs(x - whole) >= np.float32(0.5)
    return np.where(away, whole + np.copysign(np.float32(1.0), x), whole)


def _div(a, b):
    if a.dtype != _F32:
        return None  # integer division: XLA's own rules
    if b.size < np.prod(np.broadcast_shapes(a.shape, b.shape)):
        # XLA rewrites A / broadcast(B) as A * broadcast(1 / B): an array divided by a scalar,
        # or by a divisor whose axes of extent 1 are broadcast ((n, d) by (n, 1) or (1, d))
        reciprocal = np.divide(np.float32(1.0), b)
        return None if _flushed([reciprocal]) else np.multiply(a, reciprocal)
    return np.divide(a, b)


def _integer_pow(x, y):
    """Square and multiply, in JAX's order (``lax._integer_pow``), then the reciprocal for a
    negative power. XLA flushes each product that is tiny, so one that NumPy leaves subnormal
    (or rounds up to the smallest normal) sends the operation to JAX."""
    y = int(y)
    if y == 0:
        return np.ones_like(x)
    if abs(y) > 64 or (y < 0 and x.dtype != _F32):
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
    if _flushed(steps):
        return None
    return np.divide(np.float32(1.0), acc) if y < 0 else acc.copy()


def _sqrt(x):
    return np.sqrt(x) if x.dtype == _F32 else None


def _reduce_extreme(ufunc):
    """``reduce_max`` or ``reduce_min`` over ``axes``: the result is one of the inputs, whatever
    the order XLA reduces in, except among zeros of both signs (``max(0.0, -0.0)`` depends on
    the order), so a float32 array holding a zero goes to JAX; an empty reduction (XLA's
    identity, an infinity or an integer limit) too."""
    def reduce(x, axes):
        axes = tuple(int(a) for a in axes)
        if any(x.shape[a] == 0 for a in axes) or (x.dtype == _F32 and not np.all(x != 0)):
            return None
        return ufunc.reduce(x, axis=axes) if axes else x.copy()
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


def _select_n(which, *cases):
    if which.dtype == np.bool_ and len(cases) == 2:
        return np.where(which, cases[1], cases[0])
    if which.dtype == np.int32 and which.size and (which.min() < 0 or which.max() >= len(cases)):
        return None  # out of range: XLA's own rule
    if which.dtype != np.int32 or len(cases) > 32:
        return None  # np.choose takes at most 32 choices
    return np.choose(which, cases)


def _clamp(lo, x, hi):
    if x.dtype == _F32 and (np.isnan(lo).any() or np.isnan(hi).any()):
        return None
    return _min(_max(x, lo), hi)


def _convert(x, new_dtype, **_):
    new = np.dtype(new_dtype)
    if (_F16 in (x.dtype, new)) and not {x.dtype, new} <= {_F16, _F32}:
        return None  # float16 only to and from the floats: rounding an integer twice is XLA's
    if new not in _DTYPES and new != _F16:
        return None
    if x.dtype == _F32 and new == np.int32:
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


#: name -> (function of the inputs and the parameters, whether float inputs are operated on).
#: An operation that only moves or selects values never reads a float, so a subnormal passes
#: through it unchanged in XLA too.
_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "eq": np.equal,
           "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
           "ge": np.greater_equal}
_BITWISE = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def _table() -> dict:
    table = {}
    for name, ufunc in _BINARY.items():
        table[name] = (lambda a, b, _f=ufunc: _f(a, b), True)
    table["add_any"] = table["add"]  # the sum of two cotangents: JAX binds it as ``add``
    for name, ufunc in _BITWISE.items():
        table[name] = (lambda a, b, _f=ufunc: _f(a, b) if a.dtype != _F32 else None, False)
    table.update({
        "div": (_div, True),
        "max": (_max, True),
        "min": (_min, True),
        "neg": (np.negative, False),  # XLA flips the sign bit: a subnormal stays one
        "abs": (np.abs, False),
        "sign": (_sign, True),
        "floor": (lambda x: np.floor(x) if x.dtype == _F32 else None, True),
        "ceil": (lambda x: np.ceil(x) if x.dtype == _F32 else None, True),
        "round": (_round, True),
        "sqrt": (_sqrt, True),
        "integer_pow": (_integer_pow, True),
        "square": (lambda x: np.multiply(x, x), True),
        "not": (lambda x: np.invert(x) if x.dtype != _F32 else None, False),
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
        "copy": (lambda x: x.copy(), False),
        "copy_p": (lambda x: x.copy(), False),
        "stop_gradient": (lambda x: x.copy(), False),  # on values, the identity
        "is_finite": (lambda x: np.isfinite(x) if x.dtype in (_F32, _F16) else None, False),
        "reduce_max": (_reduce_extreme(np.maximum), True),
        "reduce_min": (_reduce_extreme(np.minimum), True),
        "reduce_and": (_reduce_logical(np.logical_and), False),
        "reduce_or": (_reduce_logical(np.logical_or), False),
    })
    return table


#: Parameters passed to a table function, per operation (the others are not needed there).
_PARAMS = {"round": ("rounding_method",), "integer_pow": ("y",), "convert_element_type": ("new_dtype",),
           "broadcast_in_dim": ("shape", "broadcast_dimensions"), "reshape": ("new_sizes", "dimensions"),
           "squeeze": ("dimensions",), "expand_dims": ("dimensions",), "transpose": ("permutation",),
           "slice": ("start_indices", "limit_indices", "strides"), "rev": ("dimensions",),
           "concatenate": ("dimension",), "stack": ("axis",), "pad": ("padding_config",),
           "reduce_max": ("axes",), "reduce_min": ("axes",), "reduce_and": ("axes",),
           "reduce_or": ("axes",)}
#: Operations that read arrays and make arrays and do nothing else: no effect, no program of their
#: own, no error on any value, and work about linear in their arrays (no ``dot_general``: a
#: product of two arrays within ``LARGEST`` can take seconds). One whose results are all unused
#: may be skipped (``_dead``).
_PURE = frozenset({
    "add", "sub", "mul", "div", "rem", "max", "min", "pow", "integer_pow", "atan2", "nextafter",
    "neg", "abs", "sign", "floor", "ceil", "round", "sqrt", "rsqrt", "cbrt", "square", "exp",
    "exp2", "log", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan", "sinh", "cosh",
    "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc", "erf_inv", "lgamma",
    "digamma", "is_finite", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor", "not",
    "select_n", "clamp", "convert_element_type", "broadcast_in_dim", "reshape", "squeeze",
    "expand_dims", "transpose", "slice", "rev", "concatenate", "pad", "iota", "copy", "copy_p",
    "reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_and", "reduce_or",
    "argmax", "argmin", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "sort"})
#: The operations computed here on float16 too: each rounds once to float16 (XLA computes them
#: in float32 and rounds, which gives the same float16: float32 holds more than twice float16's
#: digits), or only moves or compares values.
_HALF_OPS = frozenset({
    "add", "add_any", "sub", "mul", "neg", "eq", "ne", "lt", "le", "gt", "ge", "is_finite",
    "select_n", "convert_element_type", "broadcast_in_dim", "reshape", "squeeze", "expand_dims",
    "transpose", "slice", "rev", "concatenate", "copy", "copy_p", "stop_gradient"})
_NUMERIC = frozenset("biuf")
#: Calls whose body JAX evaluates operation by operation when bound on concrete values: the
#: body is evaluated here the same way.
_INLINE, _STEPPED = stepwise.ALWAYS, stepwise.STEPPED


def _subnormal(values, limit=_TINY) -> bool:
    """Whether a float32 value is NaN, or nonzero and smaller in magnitude than ``limit``.
    (NaN: XLA's sign and payload of a NaN result follow rules of its own, which a submission can
    read back as a value, so every operation that meets or makes one goes to JAX.)"""
    for value in values:
        if value.dtype == _F32 and value.size:
            magnitude = np.abs(value)
            if not np.all((magnitude >= limit) | (magnitude == 0)):
                return True
        elif value.dtype == _F16 and value.size:
            magnitude = np.abs(value)
            bound = _HALF_TINY if limit is _TINY else _HALF_ABOVE_TINY
            if not np.all((magnitude >= bound) | (magnitude == 0)):
                return True
    return False


def _flushed(values) -> bool:
    """Whether XLA could have flushed one of these computed values to zero: a subnormal, or
    the smallest normal, which NumPy reaches by rounding up results that XLA flushes; or
    whether one is NaN."""
    return _subnormal(values, _ABOVE_TINY)


class Evaluator:
    """``run(jaxpr, consts, *args)``: the program's outputs, as ``jax.core.eval_jaxpr`` gives
    them. Built before the submission is imported; the worker's instruments guard its methods."""

    def __init__(self, jax, uses_numpy: bool = True):
        parts = jaxapi.EvaluatorParts()
        self.source_info, self.Literal = parts.source_info, parts.Literal
        self.last_used, self.clean_up = parts.last_used, parts.clean_up
        self.array_types = frozenset({np.ndarray, *parts.array_types})
        self.scalar_types = frozenset({bool, int, float, *parts.scalar_types})
        self.table = _table() if uses_numpy else {}
        self.errstate = np.errstate
        self.debug_flags = parts.debug_flags
        #: ``shared_ops.OpLog`` when the judge asked for the operations that missed its
        #: compilation cache (set by the worker before the submission is imported)
        self.ops = None

    def run(self, jaxpr, consts, *args, jit_inlined=False) -> list:
        """The values of ``jaxpr``'s outputs; with ``jit_inlined`` (True, or the budget of the
        loops around), calls, branches and loops step by step (``stepwise``)."""
        if jit_inlined is True:
            jit_inlined = stepwise.Budget()
        env: dict = {}
        literal = self.Literal
        eqns, last_used = self._needed(jaxpr)

        def read(v):
            return v.val if isinstance(v, literal) else env[v]

        env.update(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, args))
        for eqn in eqns:
            values = [read(v) for v in eqn.invars]
            outs = self._numpy(eqn, values) if self.table else None
            name = eqn.primitive.name
            if outs is None and (name in _INLINE or (jit_inlined and name in _STEPPED)):
                # a call's body operation by operation (a branch, a loop under jit_inlined)
                outs = stepwise.evaluate(eqn, values, self._inlined(jit_inlined),
                                         lambda vals: self._bind(eqn, vals), jit_inlined or None)
            if outs is None:
                outs = self._bind(eqn, values)
            env.update(zip(eqn.outvars, outs))
            del values, outs
            self.clean_up(eqn, env, last_used)  # as eval_jaxpr: a value is dropped after its last use
        return [read(v) for v in jaxpr.outvars]

    def _needed(self, jaxpr) -> tuple[list, dict]:
        """The equations to compute, in order, and the last of them to read each value (as
        ``core.last_used``): all of them with JAX alone; else without those whose results nothing
        computed reads and that may be skipped (``_dead``), found from the outputs backwards."""
        if not self.table or any(flag.value for flag in self.debug_flags):
            return jaxpr.eqns, self.last_used(jaxpr)
        literal = self.Literal
        last_used: dict = {v: None for v in jaxpr.outvars if not isinstance(v, literal)}
        kept = []
        for eqn in reversed(jaxpr.eqns):
            if not any(v in last_used for v in eqn.outvars) and self._dead(eqn):
                continue
            kept.append(eqn)
            for v in eqn.invars:
                if not isinstance(v, literal) and v not in last_used:
                    last_used[v] = eqn
        kept.reverse()
        return kept, last_used

    def _dead(self, eqn) -> bool:
        """Whether ``eqn``, whose results nothing reads, can be skipped without any difference
        but the time and memory it would have taken (see the module's notes)."""
        if eqn.primitive.name not in _PURE or eqn.effects:
            return False
        for var in (*eqn.invars, *eqn.outvars):
            aval = var.aval
            try:
                size = math.prod(int(d) for d in aval.shape)
                if np.dtype(aval.dtype).kind not in _NUMERIC or size > LARGEST:
                    return False
            except Exception:  # an aval of another kind (a token, a key): bound as before
                return False
        return True

    def _bind(self, eqn, values) -> list:
        """The operation bound by JAX, as ``eval_jaxpr`` binds it."""
        params = eqn.primitive.get_bind_params(eqn.params)
        name_stack = self.source_info.current_name_stack() + eqn.source_info.name_stack
        ops = self.ops
        misses = ops.misses if ops is not None else 0
        with self.source_info.user_context(eqn.source_info.traceback, name_stack=name_stack), \
                eqn.ctx.manager:
            out = eqn.primitive.bind(*values, **params)
        if ops is not None:
            ops.note(eqn, params, misses)
        return list(out) if eqn.primitive.multiple_results else [out]

    def _inlined(self, budget):  # ``run`` for a body stepped through, on the same loop budget
        return lambda jaxpr, consts, *args: self.run(jaxpr, consts, *args, jit_inlined=budget)

    def _numpy(self, eqn, values):
        """The operation computed in NumPy, or None where it must go to JAX."""
        entry = self.table.get(eqn.primitive.name)
        if entry is None or eqn.primitive.multiple_results or len(eqn.outvars) != 1:
            return None
        function, reads_floats = entry
        aval = eqn.outvars[0].aval
        dtype = getattr(aval, "dtype", None)
        dtypes = _DTYPES | {_F16} if eqn.primitive.name in _HALF_OPS else _DTYPES
        if dtype not in dtypes or len(aval.shape) > HIGHEST_RANK:
            return None
        arrays = []
        for var, value in zip(eqn.invars, values):
            want = getattr(var.aval, "dtype", None)
            if want not in dtypes or len(var.aval.shape) > HIGHEST_RANK:
                return None
            kind = type(value)
            try:  # a conversion NumPy refuses (a Python int beyond int32, say) is JAX's
                if kind in self.array_types and kind not in self.scalar_types:
                    array = np.asarray(value)
                elif kind in self.scalar_types or (isinstance(value, np.generic) and kind.__module__ == "numpy"):
                    array = np.asarray(value, dtype=want)
                else:
                    return None  # anything else is JAX's to convert, as before
            except Exception:
                return None
            if array.dtype != want or array.shape != tuple(var.aval.shape) or array.size > LARGEST:
                return None
            arrays.append(array)
        if reads_floats and _subnormal(arrays):
            return None
        params = {k: eqn.params[k] for k in _PARAMS.get(eqn.primitive.name, ()) if k in eqn.params}
        try:
            with self.errstate(all="ignore"):
                out = function(*arrays, **params)
        except Exception:  # parameters NumPy does not take: JAX binds it (and reports its own error)
            return None
        if out is None:
            return None
        out = np.asarray(out)
        if out.dtype != dtype or out.shape != tuple(aval.shape) or out.size > LARGEST or _flushed([out]):
            return None
        return [out]
