"""Tracing with the spec's dims as symbols (JAX shape polymorphism), and running that very
program at a case's dims, worker side.

The judge asks for a program traced with some dims as symbols (``jax.export.symbolic_shape``,
constrained to the spec's ranges) and the others concrete. Here: the shapes built from the
request, the exceptions that say the submission read a symbolic dim as a number (a Python loop
or branch over it, ``int(n)``, ``len(x)``, a reshape into square-root blocks), and shims for
honest code JAX 0.10 cannot trace with symbolic shapes, in effect only while the judge traces:
``lax.scan(..., length=n)`` with ``xs=None`` calls ``int(length)``, so a symbolic ``length``
that equals every scanned operand's leading extent is kept as it is; ``jnp.squeeze(a)`` without
an axis refuses any symbolic shape, so it squeezes the extents that are the constant 1 and keeps
every symbolic one; ``lax.fori_loop(..., unroll=k)`` refuses bounds that are not numbers, so
``unroll`` (a hint to the compiler, which changes no value) is dropped there; and
``lax.pmean`` under ``jax.vmap(..., axis_name=...)`` divides by the axis size as a number, so a
symbolic size is divided by as the value of its dim; a debug callback under a ``vmap`` of
symbolic size is bound once with the whole batch (``debug_batching``).

``instantiate`` makes the traced program concrete at one case's dims: every shape and every
parameter that names a symbolic extent evaluated there, and each ``dim_as_value`` replaced by
its number. Nothing of the submission runs again: the case's values are the traced program's.
Decides nothing; every JAX internal it needs is named here and nowhere else.
"""

from __future__ import annotations

import contextlib
import re
import sys
import types

import numpy

from . import debug_batching, protocol

#: NumPy's names as they were when the worker loaded this module, before any submission.
np = types.SimpleNamespace(**vars(numpy))

#: characters a symbolic extent's text may hold on the channel ("2*d + 1", "floordiv(d, 2)")
ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ +-*^(),")


def dims(jax, symbols: dict) -> dict:
    """name -> symbolic dim, one scope for all, constrained to ``symbols`` (name -> [low,
    high], high None for no bound). Symbolic dims are at least 1 in JAX."""
    names = sorted(symbols)
    constraints = []
    for name in names:
        low, high = symbols[name]
        if low is not None and int(low) > 1:
            constraints.append(f"{name} >= {int(low)}")
        if high is not None:
            constraints.append(f"{name} <= {int(high)}")
    made = jax.export.symbolic_shape(", ".join(names), constraints=tuple(constraints))
    return dict(zip(names, made))


def shape(extents, symbols: dict) -> tuple:
    """A shape from the request: each extent an int or a symbol's name."""
    return tuple(symbols[e] if isinstance(e, str) else int(e) for e in extents)


def struct(jax, extents, symbols: dict, like=None, dtype=None):
    """What a traced parameter is traced as (``jax.ShapeDtypeStruct``, or a tree of them):
    ``extents`` an array's (a list of ints and symbols' names, ``shape``) or a tree's (nested
    dicts as the tree, each leaf such a list), in the dtype named by ``dtype`` (nested alike
    for a tree) or else in ``like``'s (the case's value); None: ``like`` at its own shapes."""
    if extents is None:
        return jax.tree_util.tree_map(lambda v: jax.ShapeDtypeStruct(np.shape(v), np.asarray(v).dtype), like)
    if isinstance(extents, dict):
        return {key: struct(jax, item, symbols, None if like is None else like[key],
                            None if dtype is None else dtype[key]) for key, item in extents.items()}
    made = protocol.dtype_named(dtype) if dtype is not None else np.asarray(like).dtype
    return jax.ShapeDtypeStruct(shape(extents, symbols), made)


def shapes_of(value):
    """A case's value's shape, or a tree's leaves' shapes nested as the tree."""
    if isinstance(value, dict):
        return {key: shapes_of(item) for key, item in value.items()}
    return tuple(int(e) for e in np.shape(value))


def text(extent) -> str:
    """An extent as the channel carries it: its decimal or its symbolic expression."""
    try:
        return str(int(extent))
    except Exception:  # noqa: BLE001 - a symbolic extent
        return str(extent)


def case_dims(symbolic_shapes: dict, shapes: dict) -> dict | None:
    """name -> extent of each symbolic dim at a case whose traced parameters have ``shapes``
    (name -> tuple of ints, or a tree's nested as it is: ``shapes_of``); None where the
    case's shapes are not an instance of ``symbolic_shapes`` (name -> extents, an int or a
    dim's name; a tree's nested alike)."""
    dims: dict = {}
    for name, extents in symbolic_shapes.items():
        if not _bind(extents, shapes.get(name), dims):
            return None
    return dims


def _bind(extents, got, dims: dict) -> bool:
    """Do ``got`` (a shape, or a tree's) fit ``extents``? Learns each dim's extent in ``dims``."""
    if isinstance(extents, dict):
        return (isinstance(got, dict) and set(got) == set(extents)
                and all(_bind(item, got[key], dims) for key, item in extents.items()))
    if got is None or isinstance(got, dict) or len(got) != len(extents):
        return False
    for extent, value in zip(extents, got):
        if isinstance(extent, str):
            if dims.setdefault(extent, int(value)) != int(value):
                return False
        elif int(extent) != int(value):
            return False
    return True


def instantiate(closed, dims: dict):
    """The closed program ``closed`` (traced with symbolic dims) at ``dims`` (name -> int): the
    same equations, each shape and parameter concrete, ``dim_as_value`` a literal."""
    from jax._src import core

    made = _instantiate_jaxpr(core, closed.jaxpr, dims, {})
    return core.ClosedJaxpr(made, closed.consts)


def concrete(shape, dims: dict) -> tuple:
    """A shape of the program traced with symbolic dims (extents ints or dim expressions), at
    ``dims`` (name -> int)."""
    from jax._src import core

    return tuple(_number(core, d, dims) for d in shape)


def _is_dim(core, value) -> bool:
    return not isinstance(value, int) and hasattr(value, "_evaluate") and core.is_symbolic_dim(value)


def _number(core, value, dims: dict) -> int:
    return int(value._evaluate(dims)) if _is_dim(core, value) else int(value)


def _param(core, value, dims: dict, memo: dict):
    if _is_dim(core, value):
        return _number(core, value, dims)
    if isinstance(value, core.AbstractValue):  # a callback's result shapes, say
        return _aval(core, value, dims)
    if isinstance(value, core.ClosedJaxpr):
        return core.ClosedJaxpr(_instantiate_jaxpr(core, value.jaxpr, dims, memo), value.consts)
    if isinstance(value, core.Jaxpr):
        return _instantiate_jaxpr(core, value, dims, memo)
    if isinstance(value, (tuple, list)):
        items = [_param(core, item, dims, memo) for item in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        if isinstance(value, list):
            return items
        return value._make(items) if hasattr(value, "_make") else tuple(items)
    return value


def _aval(core, aval, dims: dict):
    inner = getattr(aval, "inner_aval", None)
    if inner is not None:  # a ref (``jax.new_ref``): the array it holds
        made = _aval(core, inner, dims)
        return aval if made is inner else aval.update(inner_aval=made)
    shape = getattr(aval, "shape", None)
    if shape is None or not any(_is_dim(core, d) for d in shape):
        return aval
    return aval.update(shape=tuple(_number(core, d, dims) for d in shape))


def _instantiate_jaxpr(core, jaxpr, dims: dict, memo: dict):
    known = memo.get(id(jaxpr))
    if known is not None:
        return known[1]
    made: dict = {}

    def var(v):
        if isinstance(v, core.Literal):
            return v
        found = made.get(v)
        if found is None:
            found = made[v] = core.Var(_aval(core, v.aval, dims))
        return found

    constvars = [var(v) for v in jaxpr.constvars]
    invars = [var(v) for v in jaxpr.invars]
    eqns = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "dim_as_value":  # the dim's value, a number at these dims
            out = eqn.outvars[0]
            made[out] = core.Literal(np.array(_number(core, eqn.params["dim"], dims), out.aval.dtype),
                                     out.aval)
            continue
        params = {k: _param(core, v, dims, memo) for k, v in eqn.params.items()}
        eqns.append(core.new_jaxpr_eqn([var(v) for v in eqn.invars], [var(v) for v in eqn.outvars],
                                       eqn.primitive, params, eqn.effects, eqn.source_info, eqn.ctx))
    out = core.Jaxpr(constvars, invars, [var(v) for v in jaxpr.outvars], eqns, jaxpr.effects,
                     jaxpr.debug_info)
    memo[id(jaxpr)] = (jaxpr, out)  # the jaxpr kept: its id stays its own
    return out


def is_symbolic_error(jax, exc: BaseException) -> bool:
    """Did tracing fail because code read a symbolic dim as a number?"""
    inconclusive = getattr(jax.errors, "InconclusiveDimensionOperation", None)
    if inconclusive is not None and isinstance(exc, inconclusive):
        return True
    try:
        said = str(exc)
    except BaseException:  # noqa: BLE001
        return False
    if type(exc).__name__ == "UnexpectedDimVar":  # a dim made a constant (ensure_compile_time_eval)
        return True
    if isinstance(exc, NotImplementedError) and "non-constant size" in said:  # associative_scan
        return True
    if isinstance(exc, IndexError):  # a[d]: an integer index that is a symbolic dim
        return _INDEXED_BY_DIM.search(said.strip()) is not None
    return isinstance(exc, (TypeError, ValueError)) and ("_DimExpr" in said or "symbolic dim" in said.lower())


#: how JAX refuses an index that is a symbolic dim (or an expression of dims, ``d - 1``):
#: "... are valid indices. Got d"; a number, a traced value or None is another mistake
_INDEXED_BY_DIM = re.compile(r"valid indices\. Got (?!Traced|None|True|False)"
                             r"(?=[^\n]*[A-Za-z_])[A-Za-z0-9_ ,+\-*/()]+$")


@contextlib.contextmanager
def scan_length_shim(source: str | None = None):
    """While the judge traces with symbols: ``lax.scan`` accepts a symbolic ``length`` equal to
    the scanned operands' extent, ``jnp.squeeze`` without an axis keeps symbolic extents, and
    iterating over a symbolic axis, or comparing a symbolic dim for equality in the code of the
    file ``source`` where the ranges do not decide it, is said to read it as a number, on every
    supported JAX."""
    with _iteration_named(), _equality_named(source):
        with _scan_and_squeeze(), debug_batching.whole_batch_callbacks():
            with _fori_unroll(), _axis_size():
                yield


@contextlib.contextmanager
def _equality_named(source: str | None):
    """``T == 1`` on a symbolic T that the ranges do not decide: JAX answers False (its
    ``__eq__`` cannot raise: hashing uses it), so ``if T == 1`` silently takes one branch for
    every extent (and a recursion stopped by it never ends) where ``T >= 2`` raises. In the
    submission's own code (a comparison written in ``source``) it is said as ``>=`` says it:
    reading the dim as a number. A comparison the ranges do decide (``T == 0`` where T is at
    least 1, a guard against an empty input) keeps JAX's answer. JAX's own comparisons are left
    as they are."""
    try:
        from jax._src import core
        from jax._src.export import shape_poly
        dim = shape_poly._DimExpr
        eq, ne = dim.__dict__["__eq__"], dim.__dict__["__ne__"]
        inconclusive = shape_poly.InconclusiveDimensionOperation
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        yield
        return
    if source is None:
        yield
        return

    def check(self, other, op: str):
        if sys._getframe(2).f_code.co_filename != source:
            return
        if isinstance(other, dim) and self.scope is not other.scope:
            return
        if not isinstance(other, dim) and not core.is_constant_dim(other):
            return
        try:
            diff = self - other
            undecided = core.is_symbolic_dim(diff)
        except Exception:  # noqa: BLE001 - not a difference JAX can form: its own answer
            return
        if undecided and not (_holds(lambda: diff >= 1) or _holds(lambda: diff <= -1)):
            raise inconclusive(f"the comparison '{self} {op} {other}' is not decided by the ranges "
                               f"of the dims: it depends on their values")

    def eq_named(self, other):
        check(self, other, "==")
        return eq(self, other)

    def ne_named(self, other):
        check(self, other, "!=")
        return ne(self, other)

    dim.__eq__, dim.__ne__ = eq_named, ne_named
    try:
        yield
    finally:
        dim.__eq__, dim.__ne__ = eq, ne


def _holds(test) -> bool:
    """Does a comparison of dims hold, as their ranges decide it (False where they do not)?"""
    try:
        return bool(test())
    except Exception:  # noqa: BLE001 - undecided by the ranges
        return False


@contextlib.contextmanager
def _iteration_named():
    """Iterating over an axis of symbolic extent (``for x in X``, ``zip(X, y)``) is reading
    that extent as a number; JAX 0.10 says so with a TypeError naming ``_DimExpr``, JAX 0.11
    fails inside ``lax.unstack`` with an unrelated AttributeError. Either way it is said here,
    before JAX tries, in the words the judge recognizes (``is_symbolic_error``)."""
    try:
        from jax._src import core
        shaped = core.ShapedArray
        iterate = shaped.__dict__["_iter"].__func__
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        yield
        return

    def iterate_named(tracer):
        shape = getattr(tracer, "shape", ())
        if shape and not core.is_constant_dim(shape[0]):
            raise TypeError(f"'_DimExpr' object cannot be interpreted as an integer: iterating "
                            f"over an axis of symbolic extent {shape[0]}")
        return iterate(tracer)

    shaped._iter = staticmethod(iterate_named)
    try:
        yield
    finally:
        shaped._iter = staticmethod(iterate)


@contextlib.contextmanager
def _scan_and_squeeze():
    try:
        from jax._src import core
        from jax._src.lax.control_flow import loops
        from jax._src.numpy import lax_numpy
        original = loops._infer_scan_length
        squeeze = lax_numpy._squeeze
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        yield
        return

    def squeeze_constant_ones(a, axis):
        if axis is None:
            shape = getattr(a, "shape", ())
            axis = tuple(i for i, d in enumerate(shape) if core.is_constant_dim(d) and d == 1)
        return squeeze(a, axis)

    def infer(xs_flat, xs_avals, length):
        if length is not None and not core.is_constant_dim(length) and core.is_symbolic_dim(length):
            if all(core.definitely_equal(length, x.shape[0]) for x in xs_flat):
                return length
        return original(xs_flat, xs_avals, length)

    loops._infer_scan_length = infer
    lax_numpy._squeeze = squeeze_constant_ones
    try:
        yield
    finally:
        loops._infer_scan_length = original
        lax_numpy._squeeze = squeeze


@contextlib.contextmanager
def _fori_unroll():
    """``lax.fori_loop(..., unroll=k)`` with bounds that are not numbers: the loop without
    ``unroll``, which only tells the compiler how many steps to put in one iteration. (The
    public function calls the one it wraps through a closure cell, replaced here, so a
    reference the submission took at import time is covered too.)"""
    try:
        import jax
        from jax._src import core
        from jax._src.lax.control_flow import loops
        public = jax.lax.fori_loop
        cells = [c for c in (public.__closure__ or ()) if callable(c.cell_contents)
                 and getattr(c.cell_contents, "__name__", "") == "fori_loop"]
        inner = cells[0].cell_contents if cells else loops.fori_loop
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        yield
        return
    if not cells:
        yield
        return

    def fori_loop(lower, upper, body_fun, init_val, *args, **kwargs):
        symbolic = any(not core.is_constant_dim(b) if core.is_dim(b) else False
                       for b in (lower, upper) if not isinstance(b, int))
        if symbolic and kwargs.get("unroll") not in (None, False, 1):
            kwargs = {**kwargs, "unroll": None}
        return inner(lower, upper, body_fun, init_val, *args, **kwargs)

    cells[0].cell_contents = fori_loop
    try:
        yield
    finally:
        cells[0].cell_contents = inner


@contextlib.contextmanager
def _axis_size():
    """``lax.pmean`` over a ``vmap`` axis of symbolic size: the size as the value of its dim."""
    try:
        import math

        from jax._src import core
        from jax._src.lax import parallel
        original = parallel._axis_size
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        yield
        return

    def axis_size(axis_name, axis_index_groups=None, /):
        if axis_index_groups is None:
            names = axis_name if isinstance(axis_name, (tuple, list)) else (axis_name,)
            try:
                size = math.prod([core.get_axis_env().axis_size(n) for n in names])
            except Exception:  # noqa: BLE001 - JAX's own answer
                size = None
            if size is not None and core.is_symbolic_dim(size):
                return core.dimension_as_value(size)
        return original(axis_name, axis_index_groups)

    parallel._axis_size = axis_size
    try:
        yield
    finally:
        parallel._axis_size = original


def as_function(closed):
    """The closed program as a function of its inputs (for ``jax.jit``)."""
    from jax._src import core

    return core.jaxpr_as_fun(closed)
