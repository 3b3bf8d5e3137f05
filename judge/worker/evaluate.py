"""Evaluates a traced program on concrete inputs, with the same results as
``jax.core.eval_jaxpr`` on XLA's CPU backend, bit for bit, and most operations without XLA.

``eval_jaxpr`` binds every operation of the program on concrete arrays: each one at each new
input shape is traced, lowered and compiled (or loaded from the compilation cache) as a program
of its own, and that is most of what a worker spends on a case. Many operations are exact: IEEE
gives one correctly rounded result for an addition, a division, a comparison, a rounding or a
select, and NumPy computes the same one; so are the operations that only move values
(``stop_gradient`` is the identity on values), and the reductions whose result does not depend on
the order of the reduction (a maximum or minimum, ``all`` and ``any``; a sum or a
``dot_general`` with one term per result, or none, or of int32 values, which wrap the same in
any order). ``Evaluator.run`` computes those in NumPy and hands every other operation
(transcendentals, other sums and dots, loops, jitted calls, callbacks) to JAX exactly as
``eval_jaxpr`` does.

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
  ``sign(-0.0)`` is ``-0.0``. A float32 maximum or minimum reduced to a zero from
  zeros of both signs goes to JAX: which zero comes out depends on the order XLA reduces in.
* An operation that meets or makes a NaN goes to JAX: the sign and payload of XLA's NaN follow
  rules of its own (``max(0.0, -nan)`` is a positive NaN there), and a program can read them
  back as values. A comparison is computed (``exact_ops.COMPARES``): a NaN compares unordered,
  in XLA as in NumPy, and its result is a bool.
* An array of more than ``LARGEST`` elements goes to JAX, where one compilation is small beside
  the work; NumPy's temporaries would weigh on the memory limit.
* An operation on an array of more than ``HIGHEST_RANK`` dimensions goes to JAX: JAX's arrays
  may have more dimensions than NumPy's (64 in NumPy 2, 32 before).
* A sum of one term is that term, ``-0.0`` included (XLA does not add it to a ``+0.0``), and a
  product of one term each is rounded once, in NumPy as in XLA. A float32 sum over one axis of
  at most ``exact_ops.SEQUENTIAL_TERMS`` terms, of a small array, is XLA's sequential loop
  (each partial sum rounded, one that XLA would flush sending the sum to JAX); any other float
  sum, and a product of two terms or more, goes to JAX, whose order of summation (and use of
  fused multiply-adds) is its own.
* An operation that only moves bits (``exact_ops.MOVES``: a reshape, a transpose, a select, a
  negation...) copies a subnormal or a NaN as XLA does; its results are not checked, and the
  next operation that computes with them checks them.
* ``iota``, ``gather`` and ``scatter-add`` (``index_ops``): a gather only moves bits, its windows
  clamped as XLA clamps them (one XLA would fill goes to JAX); a float32 scatter-add is computed
  only where no element receives two updates (one rounding each, in any order).
* Values are dropped after their last use, as ``eval_jaxpr`` drops them.
* An operation whose results are all unused (``_`` in a printed program: the primal value of a
  ``jax.grad``, say) is not computed at all, as XLA drops it from a compiled program, when it
  is one of ``_PURE`` (no effect, no program of its own, no error on any value, work about
  linear in its arrays) and every array it reads or makes has at most ``LARGEST`` elements: one
  such operation takes milliseconds and a few MB, within any limit. With ``jax_debug_nans`` or
  ``jax_debug_infs`` on, where computing it could raise, it is bound.

With ``jit_inlined`` (the case runner's), calls, branches and loops are evaluated operation
by operation too, as under ``jax.disable_jit`` (``stepwise``).

With ``reuse`` (the case runner's, where the custom_vjp instrument's factor is the program's
last input), a case's second evaluation, at another factor, evaluates again only the equations
that depend on the factor and takes the others' values from the first (``reuse``).

An operation bound by JAX on arrays alone, outside any trace, calls the one-op jitted program
``bind`` itself would call (``jaxapi.DirectCalls``), kept per equation: a loop's steps bind the
same equations again and again, and ``bind``'s conversions and search for the current trace
change nothing there. The first time one is called at new input types, the executable that
program compiles to is loaded as it is where the judge's cache holds it (``stored_ops``),
without tracing and lowering it again; the values are that executable's either way. A value
the NumPy path checked for subnormals and NaN (its own results, JAX's immutable arrays) is not
checked again within the evaluation.

``tests/test_evaluate.py`` compares every operation here with XLA's on special and random
values. ``uses_numpy=False`` (the judge's ``JUDGE_EVALUATOR=jax``) binds everything, as
``eval_jaxpr`` does.
"""

from __future__ import annotations

import math
import types
import weakref

import numpy

from . import jaxapi, stepwise
from . import reuse as _reuse
from .exact_ops import COMPARES as _COMPARES, DTYPES as _DTYPES, F16 as _F16, HALF_OPS as _HALF_OPS, MAY as _MAY, MOVES as _MOVES
from .exact_ops import MULTIPLE as _MULTIPLE, PARAMS as _PARAMS
from .exact_ops import flushed as _flushed, subnormal as _subnormal, table as _table

#: NumPy's names as they were when the worker loaded this module, before any submission: the
#: evaluator never looks a function up in the numpy module a submission can write to.
np = types.SimpleNamespace(**vars(numpy))
_ref, _gone = weakref.ref, lambda: None

#: Arrays with more elements than this go to JAX: XLA's compilation is small beside the work,
#: and NumPy's temporaries would weigh on the memory limit.
LARGEST = 1 << 20
#: The most dimensions an array computed here may have (NumPy 1 allows 32).
HIGHEST_RANK = 32


#: Operations that read arrays and make arrays and do nothing else: no effect, no program of their
#: own, no error on any value, and work about linear in their arrays (no ``dot_general``: a
#: product of two arrays within ``LARGEST`` can take seconds). One whose results are all unused
#: may be skipped (``_dead``).
_PURE = frozenset({
    "add", "sub", "mul", "div", "rem", "max", "min", "pow", "integer_pow", "atan2", "nextafter", "neg",
    "abs", "sign", "floor", "ceil", "round", "sqrt", "rsqrt", "cbrt", "square", "one_minus_square", "exp",
    "exp2", "log", "log2", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan", "sinh", "cosh",
    "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc", "erf_inv", "lgamma", "digamma",
    "is_finite", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor", "not", "select_n", "clamp",
    "convert_element_type", "broadcast_in_dim", "reshape", "squeeze", "expand_dims", "transpose", "slice",
    "rev", "concatenate", "pad", "iota", "copy", "copy_p", "reduce_sum", "reduce_max", "reduce_min",
    "reduce_prod", "reduce_and", "reduce_or", "argmax", "argmin", "cumsum", "cumprod", "cummax", "cummin",
    "cumlogsumexp", "sort"})
_NUMERIC = frozenset("biuf")
#: NumPy dtypes JAX keeps as they are when it binds an array (64-bit ones it narrows)
_DIRECT_DTYPES = frozenset({np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_), np.dtype(np.float16)})
#: Calls whose body JAX evaluates operation by operation when bound on concrete values: the
#: body is evaluated here the same way.
_INLINE, _STEPPED = stepwise.ALWAYS, stepwise.STEPPED


class Evaluator:
    """``run(jaxpr, consts, *args)``: the program's outputs, as ``jax.core.eval_jaxpr`` gives
    them. Built before the submission is imported; the worker's instruments guard its methods."""

    def __init__(self, jax, uses_numpy: bool = True):
        parts = jaxapi.EvaluatorParts()
        self.source_info, self.Literal = parts.source_info, parts.Literal
        self.last_used = parts.last_used
        self.array_types = frozenset({np.ndarray, *parts.array_types})
        self.scalar_types = frozenset({bool, int, float, *parts.scalar_types})
        #: the types of the values a second evaluation may take from a first (``reuse``):
        #: NumPy's and JAX's own arrays, Python's and NumPy's numbers
        self.plain_types = (np.ndarray, *parts.array_types, bool, int, float, np.float16,
                            np.float32, np.float64, np.int32, np.int64, np.bool_)
        #: what ``reuse`` reads of each program (which equations depend on the factor), by id,
        #: with the program
        self.splits: dict = {}
        self.table = _table() if uses_numpy else {}
        self.errstate = np.errstate
        self.quiet = False  # within ``errstate(all="ignore")``, set once per evaluation
        #: the values checked already in this evaluation (``_numpy``): the NumPy results, the
        #: evaluator's own, and JAX's arrays, which no one can change; by id, a weak reference
        self.clean: dict = {}
        self.jax_arrays = frozenset(parts.array_types)
        #: ``jaxapi.DirectCalls``, and each equation's one-op callable (by id, with the
        #: equation, which keeps the id its own), or None where it must be bound
        self.direct, self.callables = (jaxapi.direct_calls() if uses_numpy else None), {}
        #: for one evaluation (a loop's steps run the same equations again and again): each
        #: equation's NumPy plan (``_plan``) and each program's equations to compute
        #: (``_needed``), by id, with what they were made from, which keeps the id its own
        self.plans: dict = {}
        self.needed: dict = {}
        self.direct_types = frozenset({*parts.direct_types, *parts.direct_arrays, np.ndarray})
        #: NumPy arrays among them, passed on only where their dtype is one JAX keeps as it is
        self.direct_arrays = frozenset({*parts.direct_arrays, np.ndarray})
        self.debug_flags = parts.debug_flags
        #: ``shared_ops.OpLog`` when the judge asked for the operations that missed its
        #: compilation cache (set by the worker before the submission is imported)
        self.ops = None
        #: ``stored_ops.StoredOps``: operations loaded compiled, without JAX's trace and
        #: lowering (set by the worker before the submission is imported)
        self.stored = None

    def run(self, jaxpr, consts, *args, jit_inlined=False, reuse=None) -> list:
        """The values of ``jaxpr``'s outputs; with ``jit_inlined`` (True, or the budget of the
        loops around), calls, branches and loops step by step (``stepwise``). With ``reuse``
        (``reuse.Reuse``, one case's), the first evaluation keeps the values that do not depend
        on the program's last input (the custom_vjp instrument's factor), and a later one with
        another factor takes them from it, with the same values as evaluated whole."""
        if reuse is not None:
            try:
                return self._run(jaxpr, consts, args, jit_inlined, reuse)
            except _reuse.Stale:  # the first evaluation's values do not serve: evaluated whole
                pass
        return self._run(jaxpr, consts, args, jit_inlined, None)

    def _run(self, jaxpr, consts, args, jit_inlined, reuse) -> list:
        if jit_inlined is True:
            jit_inlined = stepwise.Budget()
        if not self.quiet and self.table:  # NumPy's floating-point errors ignored, as XLA's are
            self.quiet = True
            try:
                with self.errstate(all="ignore"):
                    return self._run(jaxpr, consts, args, jit_inlined, reuse)
            finally:
                self.quiet = False
                self.callables.clear()  # this evaluation's equations and programs
                self.plans.clear()
                self.needed.clear()
                self.clean.clear()
        env: dict = {}
        literal = self.Literal
        eqns, last_used, drops = self._needed(jaxpr)
        hooks = None if reuse is None else reuse.begin(jaxpr, consts, args, eqns, literal,
                                                       self.plain_types, self.splits)
        budget = jit_inlined or None

        def read(v):
            return v.val if isinstance(v, literal) else env[v]

        env.update(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, args))
        for eqn, dropped in zip(eqns, drops):
            kept = None if hooks is None else hooks.kept(eqn, budget)
            if kept is not None:  # the first evaluation's values, where the rest reads them
                env.update(kept)
                for v in eqn.invars:  # as ``clean_up``, for the values computed here
                    if not isinstance(v, literal) and last_used.get(v) is eqn:
                        env.pop(v, None)
                continue
            values = [read(v) for v in eqn.invars]
            outs = self._numpy(eqn, values) if self.table else None
            name = eqn.primitive.name
            if outs is None and (name in _INLINE or (jit_inlined and name in _STEPPED)):
                # a call's body operation by operation (a branch, a loop under jit_inlined)
                outs = stepwise.evaluate(eqn, values, self._inlined(jit_inlined),
                                         lambda vals: self._bind(eqn, vals), jit_inlined or None)
            if outs is None:
                outs = self._bind(eqn, values)
            if hooks is not None:
                hooks.done(eqn, outs, budget)
            env.update(zip(eqn.outvars, outs))
            del values, outs
            for v in dropped:  # as eval_jaxpr (``clean_up``): a value is dropped after its last use
                del env[v]
        if hooks is not None:
            hooks.finish()
        return [read(v) for v in jaxpr.outvars]

    def _needed(self, jaxpr) -> tuple[list, dict, list]:
        """The equations to compute, in order, the last of them to read each value (as
        ``core.last_used``), and the values each reads last (``_drops``): all of them with JAX
        alone; else without those whose results nothing computed reads and that may be skipped
        (``_dead``), found from the outputs backwards."""
        if not self.table or any(flag.value for flag in self.debug_flags):
            last_used = self.last_used(jaxpr)
            return jaxpr.eqns, last_used, self._drops(jaxpr.eqns, last_used)
        known = self.needed.get(id(jaxpr)) if self.quiet else None
        if known is not None and known[0] is jaxpr:
            return known[1], known[2], known[3]
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
        drops = self._drops(kept, last_used)
        if self.quiet:  # within one evaluation, whose flags do not change
            self.needed[id(jaxpr)] = (jaxpr, kept, last_used, drops)
        return kept, last_used, drops

    def _drops(self, eqns, last_used) -> list:  # what ``core.clean_up_dead_vars`` drops after each
        return [tuple({v for v in e.invars if not isinstance(v, self.Literal) and last_used[v] is e})
                for e in eqns]

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
        """The operation bound by JAX, as ``eval_jaxpr`` binds it; the same call without
        ``bind``'s own steps where they change nothing (``_callable``)."""
        params = eqn.primitive.get_bind_params(eqn.params)
        name_stack = self.source_info.current_name_stack() + eqn.source_info.name_stack
        ops, stored = self.ops, self.stored
        misses = ops.misses if ops is not None else 0
        fun, primitive = self._callable(eqn, params, values)
        with self.source_info.user_context(eqn.source_info.traceback, name_stack=name_stack), \
                eqn.ctx.manager:  # (the configuration the call is keyed by: ``stored`` reads it)
            loaded = None if fun is None or stored is None else \
                stored.find(fun, primitive, params, values)
            if loaded is None and fun is not None and stored is not None and stored.writable:
                loaded = stored.compiled(fun, primitive, params, values)  # a trusted run's
            mark = stored.mark() if stored is not None and loaded is None else None
            if fun is None:
                out = eqn.primitive.bind(*values, **params)
            elif loaded is not None:
                try:
                    out = self.direct.call(loaded, values)
                except Exception:  # noqa: BLE001 - a stored one that fails: JAX's own path
                    stored.drop(fun, values)
                    out = self.direct.call(fun, values)
            else:
                out = self.direct.call(fun, values)
            if mark is not None:
                stored.keep(mark, primitive, params, values)
        if ops is not None:
            ops.note(eqn, params, misses, primitive)
        return list(out) if eqn.primitive.multiple_results else [out]

    def _callable(self, eqn, params, values) -> tuple:
        """``(callable, primitive)``: the one-op jitted callable ``bind`` would call for ``eqn``
        (``jaxapi.DirectCalls``) and the primitive it binds (``eqn``'s own, or ``add`` for a sum
        of cotangents: ``DirectCalls.target``), where every value is one of JAX's arrays or
        literals or a NumPy array, of a dtype JAX keeps as it is (no conversion), no trace is
        active and the primitive's implementation is JAX's op-by-op one; else ``(None,
        eqn.primitive)``."""
        direct = self.direct
        if direct is None:
            return None, eqn.primitive
        kinds, arrays = self.direct_types, self.direct_arrays
        for value in values:
            kind = type(value)
            if kind not in kinds or (kind in arrays and value.dtype not in _DIRECT_DTYPES):
                return None, eqn.primitive
        found = self.callables.get(id(eqn))
        if found is None or found[0] is not eqn:
            dtype = getattr(eqn.invars[0].aval, "dtype", None) if eqn.invars else None
            target = direct.target(eqn.primitive, dtype)
            fun = direct.callable_of(target, **params) if target is not None else None
            found = self.callables[id(eqn)] = (eqn, fun, target)
        if found[1] is None or not direct.ready():
            return None, eqn.primitive
        return found[1], found[2]

    def _inlined(self, budget):  # ``run`` for a body stepped through, on the same loop budget
        return lambda jaxpr, consts, *args: self.run(jaxpr, consts, *args, jit_inlined=budget)

    def _numpy(self, eqn, values):
        """The operation computed in NumPy, or None where it must go to JAX."""
        plan = self.plans.get(id(eqn))
        if plan is None or plan[0] is not eqn:
            plan = (eqn, self._plan(eqn))
            if self.quiet:
                self.plans[id(eqn)] = plan
        plan = plan[1]
        if plan is None:
            return None
        function, reads_floats, params, results, inputs, moves, compares = plan
        arrays, unchecked = [], []
        clean = self.clean
        for (want, want_shape), value in zip(inputs, values):
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
            if array.dtype != want or array.shape != want_shape or array.size > LARGEST:
                return None
            arrays.append(array)
            if reads_floats and (clean.get(id(value)) or _gone)() is not value:  # (by weak reference)
                unchecked.append((value, array))
        if unchecked:
            if _subnormal([array for _, array in unchecked]):
                # a comparison reads a NaN as IEEE says, in XLA as here (its operands are not
                # kept as checked: the next operation to read them checks them again)
                if not compares or _subnormal([array for _, array in unchecked], nan=False):
                    return None
                unchecked = ()
            for value, _ in unchecked:
                if type(value) in self.jax_arrays:  # immutable: checked once
                    try:
                        clean[id(value)] = _ref(value)
                    except TypeError:  # one that cannot be referred to weakly: checked each time
                        pass
        try:
            if self.quiet:
                out = function(*arrays, **params)
            else:
                with self.errstate(all="ignore"):
                    out = function(*arrays, **params)
        except Exception:  # parameters NumPy does not take: JAX binds it (and reports its own error)
            return None
        if out is None:
            return None
        outs = [np.asarray(o) for o in out] if type(out) is list else [np.asarray(out)]  # (a split's: a list)
        if len(outs) != len(results):
            return None
        for out, (dtype, shape) in zip(outs, results):
            if out.dtype != dtype or out.shape != shape or out.size > LARGEST:
                return None
        if moves:  # each result's elements are operands' bits, as in XLA: a subnormal or a NaN too
            return outs
        if _flushed(outs):
            return None
        for out in outs:
            clean[id(out)] = _ref(out)  # its own result, which no other code holds: checked for good
        return outs

    def _plan(self, eqn):
        """What ``_numpy`` needs of ``eqn`` whatever its values: (function, whether it reads
        floats, its parameters, each result's dtype and shape, each operand's dtype and shape,
        whether it only moves bits: ``exact_ops.MOVES``, whether it compares:
        ``exact_ops.COMPARES``); None where the operation is never
        computed here (not in the table, a dtype or rank not taken, or shapes at which its
        function declines)."""
        name = eqn.primitive.name
        entry = self.table.get(name)
        if entry is None or (eqn.primitive.multiple_results != (name in _MULTIPLE)) \
                or (len(eqn.outvars) != 1 and not eqn.primitive.multiple_results):
            return None
        function, reads_floats = entry
        dtypes = _DTYPES | {_F16} if name in _HALF_OPS else _DTYPES
        try:
            results = []
            for var in eqn.outvars:
                aval = var.aval
                dtype = getattr(aval, "dtype", None)
                if dtype not in dtypes or len(aval.shape) > HIGHEST_RANK or math.prod(aval.shape) > LARGEST:
                    return None  # (a result too large is not made, before it is refused)
                results.append((dtype, tuple(aval.shape)))
            inputs = []
            for var in eqn.invars:
                want = getattr(var.aval, "dtype", None)
                if want not in dtypes or len(var.aval.shape) > HIGHEST_RANK:
                    return None
                inputs.append((want, tuple(var.aval.shape)))
            params = {k: eqn.params[k] for k in _PARAMS.get(name, ()) if k in eqn.params}
            may = _MAY.get(name)  # one that answers only at some shapes: decided from the avals
            if may is not None and not may([v.aval for v in eqn.invars], *params.values()):
                return None
            return function, reads_floats, params, tuple(results), inputs, name in _MOVES, name in _COMPARES
        except Exception:  # an aval of another kind: JAX's
            return None
