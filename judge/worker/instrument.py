"""Worker-side instruments: what the judge learns about *how* a submission computed its output.

Runs next to untrusted code, so it is installed before the submission is imported and keeps its
own references to every JAX function it relies on.

Why not just read the jaxpr? When ``jax.vjp`` is traced, JAX inlines a custom_vjp's forward and
backward rules as plain operations; a ``custom_vjp_call`` equation survives only where the
custom_vjp function is called outside the differentiation (or inside its own forward rule). An
honest solution can show none, and a solution that calls the custom_vjp for the values but
computes the gradient by a formula can show exactly the same jaxpr as an honest one. So the
worker also instruments ``jax.custom_vjp`` itself (``install``):

* it counts the custom_vjp functions applied to a traced value, and the backward rules run;
* every cotangent a backward rule returns is multiplied by the trace's *factor*, an extra traced
  input of the one trace of each case, inside a name scope whose name is random per run. That
  multiplication is the marker ``provenance`` looks for: the cotangent input must reach the
  gradient only through markers. The worker evaluates the one jaxpr with the factor at 1 (the
  output) and at the judge's value k (``scaled``): a gradient that passes through n rules in
  series changes by k**n. No concrete factor exists while the submission's code runs.

The state lives in the closure ``install`` returns, not in a module-level name.

The jaxpr walk still reports every primitive (callbacks are visible there) and any
``custom_vjp_call`` that is present, under the names used by the supported JAX versions.
"""

from __future__ import annotations

import functools
import os
import sys
import types
import weakref

import jax
import jax.lax
import jax.numpy

#: Names of the custom_vjp primitive across JAX versions (renamed in 0.6.1).
CUSTOM_VJP_PRIMITIVES = frozenset({"custom_vjp_call", "custom_vjp_call_jaxpr"})

_OriginalCustomVJP = jax.custom_vjp
_tree_map = jax.tree_util.tree_map
_tree_leaves = jax.tree_util.tree_leaves
_Tracer = jax.core.Tracer
_named_scope = jax.named_scope
_issubdtype = jax.numpy.issubdtype
_asarray = jax.numpy.asarray
_mul, _div, _convert = jax.lax.mul, jax.lax.div, jax.lax.convert_element_type
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
        if frame.f_code.co_name == "_flatten_bwd" and \
                frame.f_code.co_filename.endswith(os.path.join("_src", "custom_derivatives.py")):
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


class Recorder:
    """The judge's handle on the instrumented custom_vjp of one worker (see ``install``)."""

    def __init__(self, tracked, begin, stop, counts, intact, made):
        self.tracked, self.begin, self.stop = tracked, begin, stop
        self.counts, self.intact, self.made = counts, intact, made


def install(marker: str) -> Recorder:
    """Replace ``jax.custom_vjp`` everywhere a submission can reach it by a public name with a
    subclass that records being applied and marks what its backward rules return.

    Each custom_vjp function gets a number n. Where it is applied to a traced array, that array
    is multiplied by factor / factor (exactly 1) under the name scope ``<marker>in<n>`` (so
    ``provenance`` can tell which functions were applied to a value depending on the inputs);
    everything its backward rule returns is multiplied by the trace's factor under
    ``<marker>out<n>``. Both use the factor input, which submission code never holds, so a
    submission that learns the scope names cannot forge either."""
    state = {"applied": 0, "runs": 0, "factor": None, "made": 0, "markers": []}
    numbers = weakref.WeakKeyDictionary()

    def number(fn) -> int:
        if fn not in numbers:
            numbers[fn] = state["made"]
            state["made"] += 1
        return numbers[fn]

    def floating(t) -> bool:
        dtype = getattr(t, "dtype", None)
        return dtype is not None and _issubdtype(dtype, _inexact)

    def inexact(t) -> bool:
        return isinstance(t, _Tracer) and floating(t)

    # The factor never reaches an object of the submission's: what a rule returns is made a JAX
    # array first, and the markers are lax primitives, not operators a class could override.
    def mark_out(scope):
        def mark(t):
            if t is None or not floating(t):
                return t
            t, factor = _asarray(t), state["factor"]
            with _named_scope(scope):
                out = _mul(t, _convert(factor, t.dtype))
            state["markers"].append(_variable_of(out))  # this multiplication, and no copy of it
            return out
        return mark

    def mark_in(scope, t):
        factor = state["factor"]
        with _named_scope(scope):  # factor / factor is exactly 1
            return _mul(t, _convert(_div(factor, factor), t.dtype))

    class TrackedCustomVJP(_OriginalCustomVJP):
        """``jax.custom_vjp`` with a recorded call and a marked backward rule. Covers the
        decorator and call forms, ``from jax import custom_vjp``, ``nondiff_argnums`` and
        ``functools.partial(jax.custom_vjp, ...)``: all of them construct this class."""

        def defvjp(self, fwd, bwd, *args, **kwargs):
            scope = f"{marker}out{number(self)}"

            @functools.wraps(bwd)
            def observed_bwd(*bwd_args):
                cotangents = bwd(*bwd_args)
                if not _called_by_jax():  # f.bwd(res, formula) by hand: no rule ran for JAX
                    return cotangents
                state["runs"] += 1
                if state["factor"] is not None:
                    cotangents = _tree_map(mark_out(scope), cotangents)
                return cotangents

            return super().defvjp(fwd, observed_bwd, *args, **kwargs)

        def __call__(self, *args, **kwargs):
            if any(isinstance(leaf, _Tracer) for leaf in _tree_leaves((args, kwargs))):
                state["applied"] += 1
                if state["factor"] is not None:
                    scope = f"{marker}in{number(self)}"
                    fixed = set(getattr(self, "nondiff_argnums", ()) or ())
                    args = tuple(a if i in fixed else _tree_map(
                        lambda t: mark_in(scope, t) if inexact(t) else t, a) for i, a in enumerate(args))
                    kwargs = {k: _tree_map(lambda t: mark_in(scope, t) if inexact(t) else t, v)
                              for k, v in kwargs.items()}
            return super().__call__(*args, **kwargs)

    def begin(factor) -> None:
        """Start one trace; ``factor`` is its traced factor input."""
        state.update(applied=0, runs=0, factor=factor, markers=[])

    def made() -> set[int]:
        """The ids of the jaxpr variables the output markers of this trace defined (the
        variables themselves are kept in the state, so no id is reused meanwhile)."""
        return {id(v) for v in state["markers"] if v is not None}

    def stop() -> None:
        """End the trace: backward rules run outside one are counted but not marked."""
        state["factor"] = None

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
               "_issubdtype", "_inexact", "_asarray", "_mul", "_div", "_convert",
               "_variable_of", "_called_by_jax"),
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


def _sub_jaxprs(value):
    """Yield the jaxprs held in one equation parameter (a jaxpr, a closed jaxpr, or a tuple)."""
    if hasattr(value, "eqns"):
        yield value
    elif hasattr(value, "jaxpr") and hasattr(value.jaxpr, "eqns"):
        yield value.jaxpr
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _sub_jaxprs(item)


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
                stack.extend(_sub_jaxprs(param))
    return {"primitives": sorted(seen), "custom_vjp_calls": custom_vjp_calls}


#: Exceptions JAX raises when a traced value is used as a concrete one.
CONCRETIZATION_ERRORS = tuple(
    getattr(jax.errors, name)
    for name in ("ConcretizationTypeError", "TracerArrayConversionError",
                 "TracerBoolConversionError", "TracerIntegerConversionError")
    if hasattr(jax.errors, name)
)
