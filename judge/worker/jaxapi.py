"""Every part of JAX the worker relies on beyond its public API, in one place: a JAX release that
moves or renames one of them is a change to this file.

The judge supports the JAX releases in ``SUPPORTED`` (CI runs the suite on the oldest and the
newest installable one). Imports of JAX happen inside the functions, so the judge side may read
the names and the range without importing JAX.

What lives here:

* the supported range (``SUPPORTED``, ``supported``);
* primitive names the worker treats specially, with every spelling they have had
  (``CUSTOM_VJP_PRIMITIVES``, ``INLINED_CALLS``);
* ``plugin_search``: JAX's search for backend plugins (``xla_bridge``);
* ``mlir_module``: the module whose ``make_ir_context`` the worker shares per thread;
* ``EvaluatorParts``: what the evaluator needs to walk a jaxpr as ``jax.core.eval_jaxpr`` does
  (literals, the last-use table, JAX's array and literal types, the debug flags);
* ``resolve_kwargs``: how ``custom_vjp`` turns keyword arguments into positional ones;
* ``runs_backward_rules``: whether a frame is the one through which JAX runs a custom_vjp's
  backward rule while it differentiates;
* ``DirectCalls``: JAX's op-by-op path for one operation without ``bind``'s search for the
  current trace, for the evaluator's repeated operations;
* ``primitives``, ``primitive_callable``, ``compile_jit``, ``plain_defaults``, ``jaxpr_types``,
  ``with_names``: what ``shared_ops`` needs to describe a bound operation as data and to
  compile it again from that description as JAX compiles it when it binds it on values;
* ``trace_context``, ``eqn_context``, ``lowering_rules``, ``default_backend``, ``serialize_compiled``, ``load_compiled``: what
  ``stored_ops`` needs to key, store and load a compiled operation;
* ``scan_layout``: how a ``scan`` equation's operands split into constants, carries and
  scanned arrays (``num_consts``/``num_carry`` up to JAX 0.10, a flat tree ``ft_in`` from 0.11);
* ``dim_top``: the largest value a symbolic dim takes under its constraints.
"""

from __future__ import annotations

import os
import re

#: The JAX releases the judge supports: at least the first, below the second.
SUPPORTED = ((0, 10, 2), (0, 12))

#: The custom_vjp primitive's names (``custom_vjp_call_jaxpr`` until JAX 0.6.1).
CUSTOM_VJP_PRIMITIVES = frozenset({"custom_vjp_call", "custom_vjp_call_jaxpr"})

#: Primitives whose one body takes the equation's operands and gives its results, one for one
#: (a value passed in or out is the same value on both sides; which outputs the caller needs
#: are those of the body it needs).
ONE_BODY_CALLS = frozenset({"jit", "pjit", "closed_call", "core_call", "named_call", "checkpoint",
                            "remat", "remat2", "custom_jvp_call", "custom_vjp_call", "composite"})

#: Calls whose body JAX evaluates operation by operation when bound on concrete values.
INLINED_CALLS = ("custom_jvp_call", "custom_vjp_call")


def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` -> ``(0, 10, 2)``; a suffix such as ``.dev20260101`` or ``rc1`` is dropped."""
    parts = []
    for piece in version.split(".")[:3]:
        digits = re.match(r"\d*", piece).group()
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def supported(version: str) -> bool:
    """Whether the JAX release ``version`` is in ``SUPPORTED``."""
    low, below = SUPPORTED
    return low <= version_tuple(version) < below


def describe_range() -> str:
    low, below = SUPPORTED
    return f">={'.'.join(map(str, low))},<{'.'.join(map(str, below))}"


def plugin_search():
    """JAX's search for backend plugins (imports them and registers their factories, creates no
    backend), or None where this JAX has none by that name."""
    try:
        from jax._src import xla_bridge
    except ImportError:
        return None
    return getattr(xla_bridge, "_discover_and_register_pjrt_plugins", None)


def mlir_module():
    """JAX's MLIR lowering module (which has ``make_ir_context``), or None."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return None
    return mlir


class EvaluatorParts:
    """What ``evaluate.Evaluator`` takes from JAX to walk a jaxpr as ``eval_jaxpr`` does."""

    def __init__(self):
        from jax._src import config, core, source_info_util
        from jax._src.array import ArrayImpl

        try:
            from jax._src import literals
        except ImportError:  # a JAX whose literals are plain NumPy values
            literals = None
        typed = lambda *names: [getattr(literals, n) for n in names if hasattr(literals, n)]  # noqa: E731
        self.source_info = source_info_util
        self.Literal = core.Literal
        self.last_used, self.clean_up = core.last_used, core.clean_up_dead_vars
        #: JAX's arrays and literals (a literal is a NumPy subclass of JAX's own)
        self.array_types = (ArrayImpl, *typed("TypedNdArray", "TypedFloat", "TypedInt",
                                              "TypedBool", "TypedComplex"))
        self.scalar_types = tuple(typed("TypedFloat", "TypedInt", "TypedBool"))
        #: JAX's own arrays, which ``bind`` passes on as they are
        self.direct_types = (ArrayImpl,)
        #: JAX's NumPy literals (``TypedNdArray``: a constant of the program, weakly typed or
        #: not), which ``bind`` passes on as they are too
        self.direct_arrays = tuple(typed("TypedNdArray"))
        self.debug_flags = (config.debug_nans, config.debug_infs)


class DirectCalls:
    """What ``Primitive.bind`` does on concrete arrays, outside any trace, for a primitive whose
    implementation is JAX's op-by-op one (``dispatch.apply_primitive``): the one-op jitted
    callable for the primitive and its parameters (``callable_of``), called with ``disable_jit``
    off (``call``). ``bind`` first converts each value (a NumPy array of a canonical dtype
    becomes a NumPy subclass of the same dtype and shape), looks for the current trace and
    checks for tracers; the evaluator takes this path only where none of that can change
    anything (``ready``, ``plain``) and otherwise binds."""

    def __init__(self):
        import functools

        from jax._src import config, core, dispatch

        self.apply, self.partial = dispatch.apply_primitive, functools.partial
        self.callable_of = dispatch.xla_primitive_callable
        self.disable_jit, self.key_reuse = config.disable_jit, config.debug_key_reuse
        self.trace_ctx, self.EvalTrace = core.trace_ctx, core.EvalTrace
        self.add_any, self.add = self._sums()

    @staticmethod
    def _sums() -> tuple:
        """``(add_any, add)``: JAX's sum of two cotangents, and ``lax.add``'s primitive, where
        ``add_any``'s implementation on JAX's arrays and literals is ``lax.add`` (``_add_arrays``
        for each); else ``(None, None)``."""
        try:
            from jax._src import ad_util, literals
            from jax._src.array import ArrayImpl
            from jax._src.lax import lax

            adders, add_arrays = ad_util.raw_jaxval_adders, lax._add_arrays
            if all(adders.get(kind) is add_arrays for kind in (ArrayImpl, literals.TypedNdArray)) \
                    and ad_util.add_jaxvals_p.impl is ad_util.add_impl:
                return ad_util.add_jaxvals_p, lax.add_p
        except (ImportError, AttributeError):
            pass
        return None, None

    def target(self, primitive, dtype):
        """The primitive whose one-op callable binding ``primitive`` on arrays of ``dtype``
        calls: ``primitive`` where ``plain``; ``add`` for ``add_any`` on floats or int32 (its
        implementation adds with ``lax.add``, which binds ``add``: the same program, compiled
        and stored under ``add``'s name); else None."""
        if self.plain(primitive):
            return primitive
        if primitive is self.add_any and self.add is not None and self.plain(self.add) \
                and dtype is not None and dtype.kind in "fi" and dtype.itemsize <= 4:
            return self.add
        return None

    def plain(self, primitive) -> bool:
        """Whether binding ``primitive`` on values is ``apply_primitive`` and nothing else."""
        impl = getattr(primitive, "impl", None)
        return (type(impl) is self.partial and impl.func is self.apply and impl.args == (primitive,)
                and not impl.keywords)

    def ready(self) -> bool:
        """No trace but the evaluation's, and no key-reuse checks (which wrap the call)."""
        return type(self.trace_ctx.trace) is self.EvalTrace and not self.key_reuse.value

    def call(self, fun, args):
        previous = self.disable_jit.swap_local(False)
        try:
            return fun(*args)
        finally:
            self.disable_jit.set_local(previous)


def direct_calls() -> DirectCalls | None:
    """``DirectCalls`` of this JAX, or None where it lacks a part of it."""
    try:
        return DirectCalls()
    except (ImportError, AttributeError):
        return None


def resolve_kwargs():
    """``custom_vjp``'s own ``resolve_kwargs(fun, args, kwargs)``, or an equivalent."""
    try:
        from jax._src.api_util import resolve_kwargs as found
        return found
    except ImportError:  # pragma: no cover - a JAX without it
        def resolve(fun, args, kwargs):
            import inspect
            bound = inspect.signature(fun).bind(*args, **kwargs)
            bound.apply_defaults()
            return bound.args
        return resolve


_RULE_RUNNER = ("_flatten_bwd", os.path.join("_src", "custom_derivatives.py"))


def runs_backward_rules(code) -> bool:
    """Whether ``code`` (a frame's code object) is the function through which JAX runs a
    custom_vjp's backward rule while it differentiates (``custom_derivatives._flatten_bwd``)."""
    name, file = _RULE_RUNNER
    return code.co_name == name and code.co_filename.endswith(file)


def scan_layout(params, operands: int) -> tuple[int, int]:
    """``(constants, carries)`` among a ``scan`` equation's ``operands`` operands: the rest are
    the scanned arrays, in that order."""
    if "num_consts" in params:
        return int(params["num_consts"]), int(params["num_carry"])
    consts, carry, _ = params["ft_in"].update(list(range(operands))).unpack()
    return len(list(consts)), len(list(carry))


def dim_top(expr) -> int | None:
    """The largest value a symbolic dim expression takes under its scope's constraints (``b``
    with ``b <= 8``: 8); None where it has no upper bound or JAX cannot tell
    (``shape_poly._bounds_decision``)."""
    try:
        from jax._src.export import shape_poly
        _, high = shape_poly._bounds_decision(expr, shape_poly.BoundsPrecision.BEST)
    except Exception:  # noqa: BLE001 - not a symbolic expression, or a JAX without it
        return None
    return int(high) if isinstance(high, (int,)) or (isinstance(high, float) and high.is_integer()) else None


def primitives() -> dict:
    """JAX's own primitives by name, from its modules loaded by ``import jax`` (a name two
    different primitives share is left out)."""
    import sys

    from jax._src import core

    found: dict = {}
    shared: set = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("jax._src.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, core.Primitive):
                if found.get(value.name, value) is not value:
                    shared.add(value.name)
                found[value.name] = value
    return {name: p for name, p in found.items() if name not in shared}


def plain_defaults() -> dict:
    """The default values of a jitted call's parameters that are objects (its unspecified
    shardings, its empty mesh), read off a traced ``jax.jit``: ``shared_ops`` names them."""
    import jax
    import numpy as np

    params = jax.make_jaxpr(jax.jit(lambda x: x))(np.float32(0)).jaxpr.eqns[0].params
    return {"unspecified": params["in_shardings"][0], "mesh": params["ctx_mesh"]}


def jaxpr_types() -> tuple:
    """``(ClosedJaxpr, Jaxpr, Literal)``."""
    from jax._src import core

    return core.ClosedJaxpr, core.Jaxpr, core.Literal


def with_names(closed, arg_names, result_paths):
    """``closed`` with its debug info's argument names and result paths replaced (a jitted
    call's module is keyed with its result paths)."""
    from jax._src import core

    info = closed.jaxpr.debug_info._replace(arg_names=tuple(arg_names), result_paths=tuple(result_paths))
    return core.ClosedJaxpr(closed.jaxpr.replace(debug_info=info), closed.consts)


def compile_jit(closed, params: dict, inputs) -> None:
    """Compile a jitted call (``jit``/``pjit`` bound on concrete values, as ``pjit`` does it)
    of ``closed`` with ``params`` for NumPy arrays shaped as ``inputs`` (dtype, shape)."""
    import numpy as np
    from jax._src import pjit
    from jax._src.interpreters import mlir

    metas = [pjit.convert_to_metaty(np.broadcast_to(np.zeros((), dtype), shape)) for dtype, shape in inputs]
    keys = ("in_shardings", "out_shardings", "in_layouts", "out_layouts", "donated_invars",
            "ctx_mesh", "name", "keep_unused", "inline", "compiler_options_kvs")
    pjit._resolve_and_lower(
        metas, jaxpr=closed, **{k: params[k] for k in keys}, lowering_platforms=None,
        lowering_parameters=mlir.LoweringParameters(), pgle_profiler=None).compile()


def primitive_callable():
    """``xla_primitive_callable(primitive, **params)``: the jitted function through which JAX
    binds one primitive on concrete values (``dispatch.apply_primitive``)."""
    from jax._src import dispatch

    return dispatch.xla_primitive_callable


def trace_context():
    """``(read, names)``: a function giving the configuration values a jitted call is keyed by
    (``config.trace_context``), and their names, in the same order."""
    from jax._src import config

    return config.trace_context, tuple(config.trace_context_names())


def eqn_context():
    """The context an equation traced here and now is bound in (``JaxprEqnContext``'s
    manager), as ``eval_jaxpr`` enters it around each equation."""
    from jax._src import core

    return core.JaxprEqnContext().manager


def lowering_rules():
    """A function giving the lowering rules registered for a primitive now, for every platform
    and for the CPU (``mlir.register_lowering``), as the objects they are."""
    from jax._src.interpreters import mlir

    def rules(primitive) -> tuple:
        return mlir._lowerings.get(primitive), mlir._platform_specific_lowerings.get("cpu", {}).get(primitive)

    return rules


def default_backend():
    """The client JAX runs on by default (``platform``, ``platform_version``, ``devices()``)."""
    import jax

    return jax.devices()[0].client


def serialize_compiled(compiled) -> tuple:
    """A ``jax.stages.Compiled`` as ``(bytes, in_tree, out_tree)``, which ``load_compiled``
    loads (``jax.experimental.serialize_executable``)."""
    from jax.experimental import serialize_executable

    return serialize_executable.serialize(compiled)


def load_compiled(serialized):
    """The ``jax.stages.Compiled`` ``serialize_compiled`` gave, loaded on the default backend."""
    from jax.experimental import serialize_executable

    data, in_tree, out_tree = serialized
    return serialize_executable.deserialize_and_load(data, in_tree, out_tree, default_backend())


def sub_jaxprs(value):
    """The open jaxprs held in one equation parameter (a jaxpr, a closed jaxpr, or a tuple)."""
    if hasattr(value, "eqns"):
        yield value
    elif hasattr(value, "jaxpr") and hasattr(value.jaxpr, "eqns"):
        yield value.jaxpr
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from sub_jaxprs(item)
