"""Worker-side instruments: what the judge learns about *how* a submission computed its output.
Runs next to untrusted code: installed before the submission is imported, with its own references.

Why not just read the jaxpr? When ``jax.vjp`` is traced, JAX inlines a custom_vjp's forward and
backward rules as plain operations; a ``custom_vjp_call`` equation survives only where the
custom_vjp function is called outside the differentiation (or inside its own forward rule). An
honest solution can show none, and a solution that calls the custom_vjp for the values but
computes the gradient by a formula can show exactly the same jaxpr as an honest one. So the
worker also instruments ``jax.custom_vjp`` itself (``install``):

* it counts the custom_vjp functions applied to a traced value, and the backward rules run;
* where function n is applied to a traced array, it subtracts a zero made from the trace's
  *factor* (an extra traced input of the one trace of each case) under the name scope
  ``<marker>in<n>a<k>``, whose name is random per run (k numbers each application): the
  *input marker*, which tells ``provenance`` which applications were to a value depending on
  the inputs;
* what function n returns, its forward rule as its primal function, it marks under the scope
  ``<marker>out<n>`` (the *output marker of the function*): as it is where the factor lies in
  ``[0, shift.STILL]``, moved by the factors of ``shift`` (one large number far out). ``provenance`` tells
  a value the function computed from its input from its input passed through;
* every time JAX runs a backward rule it marks the rule's cotangent input (the *cotangent
  marker*, the same subtraction of a zero) and multiplies everything the rule returns by the
  factor (the *output marker*). Both are recorded as the very jaxpr variables they define,
  with the function's number, a number for that run of the rule and the number of the
  application whose forward rule saved the residuals it runs on (``made``): what a
  submission writes can carry any name scope, but it defines other variables. ``provenance``
  asks that the cotangent reach the gradient only from a cotangent marker to an output marker
  of the same run. The worker evaluates the one jaxpr with the factor at 1 (the output) and at
  the judge's value k (``scaled``): a gradient that passes through n rules in series changes
  by k**n. No concrete factor exists while the submission's code runs.

Where an instrumented function is applied, JAX's own custom_vjp is called with the factor as
one more argument, which the forward rule saves as a residual beside the submission's: JAX
carries it through ``cond``, ``switch``, ``scan`` and loops as it carries any argument and
residual, and the backward rule marks with it. A tracer a rule captured from outside would be a
constant of a jaxpr JAX traces apart (a branch it transposes), which it cannot evaluate.

The state lives in the closure ``install`` returns, not in a module-level name; the jaxpr walk
reports every primitive (callbacks too) and any ``custom_vjp_call``.
"""

from __future__ import annotations

import functools
import os
import sys
import types

import jax
import jax.lax
import jax.numpy

from . import jaxapi
from .rule_identity import function as _rule_key, static as _static_key
from .program import sub_jaxprs  # the one walk into nested jaxprs
from .shift import FAR, STILL

CUSTOM_VJP_PRIMITIVES = jaxapi.CUSTOM_VJP_PRIMITIVES

_OriginalCustomVJP = jax.custom_vjp
_tree_map = jax.tree_util.tree_map
_tree_leaves = jax.tree_util.tree_leaves
_Tracer = jax.core.Tracer
_named_scope = jax.named_scope
_issubdtype = jax.numpy.issubdtype
_asarray = jax.numpy.asarray
_mul, _sub, _convert = jax.lax.mul, jax.lax.sub, jax.lax.convert_element_type
_full, _full_like, _clamp, _select_n, _ge, _abs = (jax.lax.full, jax.lax.full_like, jax.lax.clamp,
                                                   jax.lax.select_n, jax.lax.ge, jax.lax.abs)
_register = jax.tree_util.register_pytree_node

_resolve_kwargs = jaxapi.resolve_kwargs()  # how custom_vjp itself turns keywords into positions
_runs_backward_rules = jaxapi.runs_backward_rules
_inexact = jax.numpy.inexact


_JAX_FOLDER = os.path.dirname(jax.__file__) + os.sep


def _called_by_jax() -> bool:
    """Whether a backward rule's wrapper was called by the part of JAX that runs custom_vjp
    rules when it differentiates (``custom_derivatives._flatten_bwd``, through JAX's own
    wrappers only), and not by the submission calling ``f.bwd`` itself, directly or through
    another JAX function (``tree_map``, ``vmap``)."""
    frame = sys._getframe(2)  # 0: this function, 1: the wrapper, 2: whoever called it
    for _ in range(8):
        if frame is None or not os.path.abspath(frame.f_code.co_filename).startswith(_JAX_FOLDER):
            return False
        if _runs_backward_rules(frame.f_code):
            return True
        frame = frame.f_back
    return False


def _variable_of(tracer):
    """The jaxpr variable a traced value stands for: a tracer of the trace being built holds its
    variable, and a batching or JVP tracer wraps such a tracer (``val``, ``primal``)."""
    for _ in range(16):
        inner = getattr(tracer, "val", None)
        if inner is None:
            inner = getattr(tracer, "primal", None)
        if inner is None:
            return None
        if not isinstance(inner, _Tracer):
            return inner
        tracer = inner
    return None


def _named_like(original):
    """Give a wrapper the name of what it wraps (JAX names the jaxpr's equations after it), and
    not its signature: the wrapper takes one more argument."""
    def name(wrapper):
        for attr in ("__name__", "__qualname__"):
            value = getattr(original, attr, None)
            if isinstance(value, str):
                setattr(wrapper, attr, value)
        return wrapper
    return name


class Recorder(tuple):
    """The judge's handle on the instrumented custom_vjp of one worker (see ``install``): a
    tuple, so that none of its functions can be replaced on it."""

    __slots__ = ()
    _fields = ("tracked", "begin", "stop", "counts", "intact", "made")

    def __new__(cls, tracked, begin, stop, counts, intact, made):
        return tuple.__new__(cls, (tracked, begin, stop, counts, intact, made))

    tracked, begin, stop, counts, intact, made = (
        property(lambda self, i=i: tuple.__getitem__(self, i)) for i in range(6))


def install(marker: str) -> Recorder:
    """Replace ``jax.custom_vjp`` everywhere a submission can reach it by a public name with a
    subclass that records being applied and marks its backward rules (see the module's
    docstring). The markers use the factor input, which submission code never holds while it
    runs outside a rule, and the output and cotangent markers count only as the variables
    recorded here, so a submission that learns the scope names cannot forge one."""
    state = {"applied": 0, "runs": 0, "factors": [], "made": 0, "markers": [], "applications": 0}
    numbers: dict = {}

    def number(fn, statics: tuple = ()) -> int:
        """The number of the custom_vjp ``fn`` applied with the static (nondiff) arguments
        ``statics``: one for each function and values of them (``rule_identity``)."""
        key = (_rule_key(fn, TrackedCustomVJP), statics)
        if key not in numbers:
            numbers[key] = state["made"]
            state["made"] += 1
        return numbers[key]

    def floating(t) -> bool:
        return getattr(t, "dtype", None) is not None and _issubdtype(t.dtype, _inexact)

    def inexact(t) -> bool:
        return isinstance(t, _Tracer) and floating(t)

    class Residual:
        """What the instrumented forward rule saves: the submission's residuals, the factor of
        the trace it ran in, and (static) the shape and dtype of each floating array argument
        the backward rule answers, for a zero to stand for a None it returns there, and (static)
        the number of the application whose forward rule saved them."""
        __slots__ = ("res", "factor", "zeros", "application")

        def __init__(self, res, factor, zeros=(), application=-1):
            self.res, self.factor, self.zeros, self.application = res, factor, zeros, application

    _register(Residual, lambda r: ((r.res, r.factor), (r.zeros, r.application)),
              lambda z, c: Residual(*c, *z))

    def zero_shapes(args, fixed) -> tuple:
        """(shape, dtype) of each argument not in ``fixed`` (the backward rule returns one
        cotangent each) that is a floating array, else None."""
        def shape(a):
            a = getattr(a, "value", a)  # a CustomVJPPrimal under symbolic_zeros
            return (tuple(a.shape), a.dtype) if inexact(a) else None
        return tuple(shape(a) for i, a in enumerate(args) if i not in fixed)

    def stand_in(cotangents, zeros) -> tuple:
        """The rule's cotangents with a zero for each None it returned for a floating array
        argument: JAX reads None as that zero, and the zero then carries the output marker, so a
        rule that returns None where the answer is zero is seen to answer."""
        return tuple(_full(z[0], 0, z[1]) if c is None and z is not None else c
                     for c, z in zip(cotangents, (*zeros, *[None] * len(cotangents))))

    def zero_of(factor, dtype):
        return _convert(_sub(factor, factor), dtype)  # exactly 0 for the finite factor

    def record(out, kind: str, run: int, fn: int, application: int) -> None:
        var = _variable_of(out)
        if var is not None:  # the variable itself is kept, so its id is not reused meanwhile
            state["markers"].append((var, kind, run, fn, application))

    # The factor never reaches an object of the submission's: what a rule receives and returns
    # is made a JAX array first, and the markers are lax primitives, not operators a class could
    # override. Subtracting +0.0 keeps every value, -0.0 included.
    def mark_cotangent(factor, run, fn, application):
        def mark(t):
            if not inexact(t):
                return t  # a constant, a symbolic zero: no cotangent flows through it
            t = _asarray(t)
            out = _sub(t, zero_of(factor, t.dtype))
            record(out, "g", run, fn, application)
            return out
        return mark

    def mark_out(factor, run, fn, application):
        def mark(t):
            if t is None or not floating(t):
                return t
            t = _asarray(t)
            out = _mul(t, _convert(factor, t.dtype))
            record(out, "out", run, fn, application)
            return out
        return mark

    def mark_in(scope, factor, t):
        with _named_scope(scope):
            return _sub(t, zero_of(factor, t.dtype))

    def mark_moved(scope, factor, t):
        with _named_scope(scope):
            still = _clamp(0.0, factor, STILL)  # the factor, a float32 scalar, in [0, STILL]
            outside = _sub(still, factor)  # +0.0 within, else minus how far outside
            kept = _select_n(_ge(_abs(outside), FAR), t, _full_like(t, 0))  # t, or zeros far out
            return _sub(kept, _convert(outside, t.dtype))  # less +0.0 or -(outside)

    def mark_made(factor, fn, out):
        """The function's primal output, its floating arrays under the output marker."""
        scope = f"{marker}out{fn}"
        return _tree_map(lambda t: mark_moved(scope, factor, t) if inexact(t) else t, out)

    def marked(self, fn: int, application: int):
        """The original custom_vjp of ``self``'s function, rules and options, with the factor
        as one more argument, last: the forward rule saves it as a residual, the backward rule
        marks with it. Nothing of the submission's ever receives it. ``application`` numbers
        this application of the function: its backward rule's markers carry it."""
        fun, fwd, bwd, zeros = self.fun, self.fwd, self.bwd, self.symbolic_zeros
        fixed = set(self.nondiff_argnums)

        @_named_like(fun)
        def inner_fun(*args):
            return mark_made(args[-1], fn, fun(*args[:-1]))

        @_named_like(fwd)
        def inner_fwd(*args):
            factor = args[-1].value if zeros else args[-1]
            state["factors"].append(factor)  # what is applied inside marks with this factor
            try:
                out, res = fwd(*args[:-1])
            finally:
                state["factors"].pop()
            return mark_made(factor, fn, out), Residual(res, factor, zero_shapes(args[:-1], fixed),
                                                        application)

        @_named_like(bwd)
        def inner_bwd(*args):
            *fixed, saved, cotangent = args
            if not _called_by_jax():  # the rule reached by other means than JAX's rule runner
                return bwd(*fixed, saved.res, cotangent)
            state["runs"] += 1
            run = state["runs"]
            cotangent = _tree_map(mark_cotangent(saved.factor, run, fn, saved.application), cotangent)
            state["factors"].append(saved.factor)
            try:
                cotangents = bwd(*fixed, saved.res, cotangent)
            finally:
                state["factors"].pop()
            if not isinstance(cotangents, (tuple, list)):
                return cotangents  # JAX reports the submission's mistake
            cotangents = stand_in(tuple(cotangents), saved.zeros)
            return (*_tree_map(mark_out(saved.factor, run, fn, saved.application), cotangents), None)

        inner = _OriginalCustomVJP(inner_fun, nondiff_argnums=self.nondiff_argnums)
        inner.defvjp(inner_fwd, inner_bwd, symbolic_zeros=zeros,
                     optimize_remat=getattr(self, "optimize_remat", False))
        return inner

    class TrackedCustomVJP(_OriginalCustomVJP):
        """``jax.custom_vjp`` with a recorded call and a marked backward rule. Covers the
        decorator and call forms, ``from jax import custom_vjp``, ``nondiff_argnums`` and
        ``functools.partial(jax.custom_vjp, ...)``: all of them construct this class. Its own
        ``fwd`` and ``bwd`` stay the submission's: a rule called by hand is not marked."""

        def __call__(self, *args, **kwargs):
            if not any(isinstance(leaf, _Tracer) for leaf in _tree_leaves((args, kwargs))):
                return super().__call__(*args, **kwargs)
            state["applied"] += 1
            factor = state["factors"][-1] if state["factors"] else None
            if factor is None or self.fwd is None or self.bwd is None:
                return super().__call__(*args, **kwargs)
            args = _resolve_kwargs(self.fun, args, kwargs) if kwargs else args
            fixed = set(self.nondiff_argnums)
            fn = number(self, tuple(_static_key(a) for i, a in enumerate(args) if i in fixed))
            application = state["applications"]
            state["applications"] += 1
            scope = f"{marker}in{fn}a{application}"
            args = tuple(a if i in fixed else _tree_map(
                lambda t: mark_in(scope, factor, t) if inexact(t) else t, a) for i, a in enumerate(args))
            return marked(self, fn, application)(*args, factor)

    def begin(factor) -> None:
        """Start one trace; ``factor`` is its traced factor input."""
        state.update(applied=0, runs=0, factors=[factor], markers=[])

    def made() -> dict[int, tuple[str, int, int, int]]:
        """The markers of this trace's backward rules: the id of the jaxpr variable each one
        defined -> (kind, run, function, application), kind "g" for a rule's cotangent input
        and "out" for what it returned (the variables are kept in the state, so no id is
        reused meanwhile)."""
        return {id(var): (kind, run, fn, app) for var, kind, run, fn, app in state["markers"]}

    def stop() -> None:
        """End the trace: custom_vjp functions applied outside one are counted but not marked."""
        state["factors"] = []

    def counts() -> tuple[int, int]:
        return state["applied"], state["runs"]

    import jax.custom_derivatives as public_cd

    def intact() -> bool:
        """False if the submission swapped the instrument back out (see also ``guard``)."""
        return jax.custom_vjp is TrackedCustomVJP and public_cd.custom_vjp is TrackedCustomVJP

    jax.custom_vjp = TrackedCustomVJP
    public_cd.custom_vjp = TrackedCustomVJP
    return Recorder(TrackedCustomVJP, begin, stop, counts, intact, made)


#: The JAX names the worker and its instruments call, by module. Replacing any of them (or the
#: module in ``sys.modules``) after ``guard`` is tampering.
WATCHED = {
    "jax": ("make_jaxpr", "disable_jit", "clear_caches", "custom_vjp", "jit", "vjp", "jvp",
            "named_scope"),
    "jax.core": ("eval_jaxpr", "Tracer"),
    "jax.tree_util": ("tree_map", "tree_leaves"),
    "jax.custom_derivatives": ("custom_vjp",),
    __name__: ("Recorder", "install", "walk_primitives", "CONCRETIZATION_ERRORS",
               "_OriginalCustomVJP", "_tree_map", "_tree_leaves", "_Tracer", "_named_scope",
               "_issubdtype", "_inexact", "_asarray", "_mul", "_sub", "_convert", "_clamp", "_select_n",
               "_ge", "_abs", "_full_like", "_register", "STILL", "FAR",
               "_resolve_kwargs", "_named_like",
               "_variable_of", "_called_by_jax", "_static_key", "_rule_key"),
}
_WRITES: list[str] = []        # assignments to watched names, recorded as they happen


class _GuardedModule(types.ModuleType):
    """A module that records assignments to its watched names, so that replacing a function
    and putting it back between two checks is still seen."""

    def __setattr__(self, name, value):
        if name in WATCHED.get(self.__name__, ()):
            _WRITES.append(f"{self.__name__}.{name}")
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in WATCHED.get(self.__name__, ()):
            _WRITES.append(f"{self.__name__}.{name}")
        super().__delattr__(name)


def _code(obj):
    return getattr(obj, "__code__", None)


def guard(*classes):
    """Freeze what the instruments rely on; call after ``install`` and before the submission is
    imported. Returns a function listing what has been tampered with since (empty if nothing).

    Covers: the watched names of ``WATCHED`` (identity and, for Python functions, code object),
    assignments to them even if undone, the modules in ``sys.modules``, and the methods of the
    given ``classes`` (the instrumented custom_vjp and the worker's own). This is
    best effort: code in the same process can still patch JAX internals, mutate objects in
    place, or reach these references through the garbage collector (see SECURITY.md).
    """
    import jax.core  # noqa: F401 - the watched submodules must be loaded to be frozen
    import jax.custom_derivatives  # noqa: F401
    import jax.tree_util  # noqa: F401

    modules = {name: sys.modules[name] for name in WATCHED}
    frozen = {}
    for modname, names in WATCHED.items():
        for name in names:
            if name in vars(modules[modname]):
                obj = getattr(modules[modname], name)
                frozen[(modname, name)] = (obj, _code(obj))
    methods = {}
    for cls in classes:
        for name, obj in vars(cls).items():
            if isinstance(obj, types.FunctionType):
                methods[(cls, name)] = (obj, obj.__code__)
    for module in modules.values():
        if type(module) is types.ModuleType:
            module.__class__ = _GuardedModule

    # Bound now, so that replacing a builtin or a module global later cannot blind the check.
    def tampered(writes=_WRITES, sys_modules=sys.modules, guarded=_GuardedModule, set_=set,
                 sorted_=sorted, type_=type, vars_=vars, getattr_=getattr) -> list[str]:
        found = set_(writes)
        for modname, module in modules.items():
            if sys_modules.get(modname) is not module:
                found.add(f"sys.modules[{modname!r}]")
            if type_(module) is not guarded:
                found.add(f"{modname} (guard removed)")
        for (modname, name), (obj, code) in frozen.items():
            now = vars_(modules[modname]).get(name)
            if now is not obj or getattr_(now, "__code__", None) is not code:
                found.add(f"{modname}.{name}")
        for (cls, name), (obj, code) in methods.items():
            now = vars_(cls).get(name)
            if now is not obj or getattr_(now, "__code__", None) is not code:
                found.add(f"{cls.__qualname__}.{name}")
        return sorted_(found)

    return tampered


def walk_primitives(jaxpr) -> dict:
    """Every primitive in a jaxpr and all its sub-jaxprs (jit/pjit, cond branches, while and scan
    bodies, custom_jvp/custom_vjp bodies), with how many custom_vjp calls appear."""
    seen: set[str] = set()
    custom_vjp_calls = 0
    stack = [getattr(jaxpr, "jaxpr", jaxpr)]
    visited: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in visited:
            continue
        visited.add(id(current))
        for eqn in current.eqns:
            name = eqn.primitive.name
            seen.add(name)
            if name in CUSTOM_VJP_PRIMITIVES:
                custom_vjp_calls += 1
            for param in eqn.params.values():
                stack.extend(sub_jaxprs(param))
    return {"primitives": sorted(seen), "custom_vjp_calls": custom_vjp_calls}


#: Exceptions JAX raises when a traced value is used as a concrete one.
CONCRETIZATION_ERRORS = tuple(
    getattr(jax.errors, name)
    for name in ("ConcretizationTypeError", "TracerArrayConversionError",
                 "TracerBoolConversionError", "TracerIntegerConversionError")
    if hasattr(jax.errors, name)
)
