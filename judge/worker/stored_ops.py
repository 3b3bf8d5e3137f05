"""Compiled operations kept in the judge's cache folder in a form a worker loads as they are,
without tracing, lowering or hashing the operation again.

The first time a worker binds an operation at a new (primitive, parameters, input types), JAX's
op-by-op path traces a one-op program, lowers it to a module, hashes the module and loads the
executable from the compilation cache: about 5 ms, most of it before the load, and a case run
meets a hundred such first uses or more. A stored operation is the executable alone
(``jaxapi.serialize_compiled``), in a file named by a digest of everything that decides what
the operation compiles to (``op_key``): the primitive, its parameters, each input's dtype,
shape and weak type, the configuration JAX keys a jitted call by, the JAX, jaxlib, NumPy and
Python versions, the backend and $XLA_FLAGS. The worker computes that digest from the
operation it is about to bind and loads the file if there is one (``StoredOps.find``); on any
miss or error it binds the operation as before.

Only the judge's own code writes these files (``StoredOps.compiled``, ``keep``, ``write``): its
compiling process (``op_compiler``), from an operation's description alone, and a trusted
worker whose cache folder is writable (the reference's run that fills the cache), each time
JAX compiled the operation there and then (an executable loaded from the compilation cache
does not serialize whole); such a worker compiles an operation before it runs it, so that
what it runs is what it stores. A worker that runs a submission gets the folder read-only. Nothing here
decides a verdict: a loaded operation is the executable JAX's own path would load for it, and
its values are those of that executable.

What a digest can describe (``encode``): parameters that are None, booleans, ints, strings,
floats (not NaN), dtypes, members of JAX's enums, JAX's named tuples of dimension numbers and
tuples of these, each of its exact type; an operation with any other parameter (a program, a
function, a sharding, a NumPy scalar) is never stored.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import pickle
import sys

import numpy as np

from . import jaxapi
from .shared_ops import DTYPES, TUPLES

#: The form of a stored file; a new form never reads an old one (its digests differ).
#: (2: no executable with a custom call is stored.)
FORM = 2
#: A stored operation's file in the cache folder: this prefix and the digest.
PREFIX = "stored-op-"
#: A stored file's size, at most.
MAX_BYTES = 16 << 20
#: JAX's events around a compilation.
HIT_EVENT, MISS_EVENT = "/jax/compilation_cache/cache_hits", "/jax/compilation_cache/cache_misses"
_ENUM_MODULES = ("jax.", "jaxlib.")
#: NumPy dtypes JAX takes as they are (it would narrow a 64-bit one before the call)
_NUMPY_DTYPES = frozenset({"float32", "int32", "bool", "float16"})


class NotStored(Exception):
    """An operation the digest cannot describe exactly."""


def encode(value, depth: int = 0):
    """``value`` as JSON data that tells apart every value and type a digest describes."""
    if depth > 16:
        raise NotStored("too deep")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return {"i": str(value)}
    if kind is float:
        if value != value:
            raise NotStored("NaN")
        return {"f": repr(value)}
    if kind is tuple:
        return {"t": [encode(v, depth + 1) for v in value]}
    if isinstance(value, np.dtype):
        if value.name not in DTYPES:
            raise NotStored("dtype")
        return {"dtype": value.name}
    module = getattr(kind, "__module__", "") or ""
    if isinstance(value, enum.Enum) and module.startswith(_ENUM_MODULES) \
            and getattr(sys.modules.get(module), kind.__qualname__, None) is kind:
        return {"enum": f"{module}:{kind.__qualname__}", "name": value.name}
    if kind.__name__ in TUPLES and module.startswith(_ENUM_MODULES):
        return {"nt": kind.__name__, "f": [encode(v, depth + 1) for v in value]}
    raise NotStored(kind.__name__)


def _context_text(names, values) -> str:
    """JAX's configuration that keys a jitted call, as text; NotStored where an entry is not
    plain data (the axis environment must be the empty one)."""
    parts = []
    for name, value in zip(names, values):
        kind = type(value).__name__
        if kind == "AxisEnv":
            if value.axis_sizes or value.spmd_axis_names or value.explicit_mesh_axis_names:
                raise NotStored("an axis environment")
            parts.append([name, "empty"])
        elif kind == "AbstractMesh":
            if getattr(value, "empty", False) is not True:
                raise NotStored("a mesh")
            parts.append([name, "empty mesh"])
        else:
            parts.append([name, encode(value)])
    return json.dumps(parts, separators=(",", ":"))


def environment(jax) -> list:
    """What, beside the operation, decides the executable and the stored file's form."""
    import jaxlib

    backend = jaxapi.default_backend()
    return [FORM, jax.__version__, jaxlib.__version__, np.__version__, list(sys.version_info[:2]),
            backend.platform, backend.platform_version, len(backend.devices()),
            os.environ.get("XLA_FLAGS", "")]


def op_key(environment_: list, context: str, name: str, params: dict, signature) -> str:
    """The digest of an operation: 64 hex digits. NotStored where it cannot be described."""
    encoded = [[k, encode(params[k])] for k in sorted(params)]
    text = json.dumps([environment_, context, name, encoded, signature], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def signature_of(values) -> list | None:
    """Each input's [dtype, shape, weak type], or None where one is not an array of JAX's or a
    NumPy array (or JAX's NumPy literal) of a dtype JAX takes as it is."""
    found = []
    for value in values:
        aval = getattr(value, "aval", None)
        if type(value) is np.ndarray:
            if value.dtype.name not in _NUMPY_DTYPES:
                return None
            weak = False
        elif aval is not None and isinstance(value, np.ndarray) and type(value).__name__ == "TypedNdArray":
            if value.dtype.name not in _NUMPY_DTYPES:  # a literal of the program, passed on as it is
                return None
            weak = bool(aval.weak_type)
        elif aval is not None and type(value).__name__ == "ArrayImpl":
            weak = bool(aval.weak_type)
        else:
            return None
        if value.dtype.name not in DTYPES:
            return None
        found.append([value.dtype.name, list(value.shape), weak])
    return found


def calls_out(compiled) -> bool:
    """Whether ``compiled`` calls code outside XLA (a custom call: LAPACK's SVD or eigensolver on
    the CPU, say), or cannot be read to tell. Such a call's target is made ready in the process
    when JAX lowers the operation (LAPACK's functions looked up), which loading the executable
    alone skips: run in a process that never lowered it, it crashes."""
    try:
        text = compiled.as_text()
    except Exception:  # noqa: BLE001 - unreadable: not stored
        return True
    return not isinstance(text, str) or "custom-call" in text or "custom_call" in text


def write(folder: str, key: str, compiled) -> bool:
    """Write ``compiled`` as the stored operation ``key`` in ``folder``, whole (a rename); not
    one that calls code outside XLA (``calls_out``)."""
    if calls_out(compiled):
        return False
    blob = pickle.dumps((FORM, key, jaxapi.serialize_compiled(compiled)), protocol=4)
    if len(blob) > MAX_BYTES:
        return False
    temp = os.path.join(folder, f".{PREFIX}{key}.{os.getpid()}.part")
    try:
        with open(temp, "wb") as f:
            f.write(blob)
        os.replace(temp, os.path.join(folder, PREFIX + key))
        return True
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
        return False


class Compiles:
    """Counts JAX's compilation-cache hits and misses in this process."""

    def __init__(self, jax):
        self.hits = self.misses = 0
        jax.monitoring.register_event_listener(self._event)

    def _event(self, event, *args, **kwargs) -> None:
        if event == MISS_EVENT:
            self.misses += 1
        elif event == HIT_EVENT:
            self.hits += 1

    def mark(self) -> tuple:
        return self.hits, self.misses


def compile_fresh(compiles: Compiles, lower):
    """``lower().compile()`` where that compiles afresh, else None: an executable JAX loaded
    from the compilation cache is not stored (it does not serialize whole)."""
    hits, misses = compiles.mark()
    compiled = lower().compile()
    return compiled if compiles.mark() == (hits, misses + 1) else None


class Writer:
    """The compiling process's side (``op_compiler``): ``compile(primitive, params, inputs,
    lower)`` compiles ``lower()`` and stores the executable under the digest a worker computes
    for the operation on arrays of ``inputs`` (dtype, shape; not weak) in ``folder``."""

    def __init__(self, jax, folder: str):
        self.folder = folder
        self.compiles = Compiles(jax)
        context_of, names = jaxapi.trace_context()
        self.eqn_context = jaxapi.eqn_context
        with self.eqn_context():  # as a worker binds an operation: in its equation's context
            self.context_key = _context_text(names, context_of())
        self.environment = environment(jax)
        self.stored = 0

    def compile(self, primitive, params: dict, inputs, lower) -> None:
        with self.eqn_context():
            compiled = compile_fresh(self.compiles, lower)
        if compiled is None or self.environment[7] != 1:
            return
        signature = [[np.dtype(dtype).name, list(shape), False] for dtype, shape in inputs]
        try:
            key = op_key(self.environment, self.context_key, primitive.name, params, signature)
        except (NotStored, TypeError, ValueError):
            return
        self.stored += write(self.folder, key, compiled)


class StoredOps:
    """The stored operations of the cache folder ``folder`` for one worker: ``find`` loads one,
    ``keep`` stores one the worker compiled itself (only with ``writable``: a trusted run's).
    Built before the submission is imported: the configuration it sees then (within an
    equation's context, as the evaluator binds one) is the one a stored operation is looked up
    and kept under; under any other, ``find`` gives nothing and ``keep`` keeps nothing.
    ``find`` and ``keep`` are called within the equation's context."""

    def __init__(self, jax, folder: str, writable: bool = False):
        self.folder, self.writable = folder, writable
        self.context_of, names = jaxapi.trace_context()
        with jaxapi.eqn_context():  # where the evaluator binds an operation
            self.context = self.context_of()
        self.context_key = _context_text(names, self.context)
        #: where the traceback of the operation being bound is: not part of what it computes
        self.user = names.index("user_context") if "user_context" in names else None
        self.environment = environment(jax)
        if self.environment[7] != 1:
            raise NotStored("more than one device")
        self.primitives = jaxapi.primitives()
        #: each primitive's lowering rules as they were: one registered since (its program is
        #: then another) is never loaded nor kept
        self.rules_of = jaxapi.lowering_rules()
        self.rules = {p: self.rules_of(p) for p in self.primitives.values()}
        #: ``jax_debug_nans``, ``jax_debug_infs``: with one on, JAX's own path checks each
        #: result and reports where a NaN came from; nothing is loaded then
        self.debug_flags = jaxapi.EvaluatorParts().debug_flags
        self.load_compiled, self.direct = jaxapi.load_compiled, jaxapi.direct_calls()
        self.compiles = Compiles(jax) if writable else None
        #: (jitted callable, signature) -> the loaded operation, or None where none is stored
        self.loaded: dict = {}
        self.counts = {"found": 0, "missing": 0, "kept": 0}

    def _same_context(self, primitive) -> bool:
        """Whether JAX's configuration is the one the stored operations are keyed under (but
        for the traceback of the operation being bound), without its checks for NaN and
        infinities, and ``primitive``'s lowering rules the ones it had."""
        rules, kept = self.rules_of(primitive), self.rules.get(primitive, (None, None))
        if rules[0] is not kept[0] or rules[1] is not kept[1]:
            return False
        nans, infs = self.debug_flags
        if nans.value or infs.value:
            return False
        now, then, user = self.context_of(), self.context, self.user
        if user is None:
            return now == then
        return now[:user] == then[:user] and now[user + 1:] == then[user + 1:]

    def _key(self, primitive, params: dict, signature) -> str | None:
        if self.primitives.get(primitive.name) is not primitive:
            return None  # not JAX's own primitive of that name
        try:
            return op_key(self.environment, self.context_key, primitive.name, params, signature)
        except (NotStored, TypeError, ValueError):
            return None

    def find(self, fun, primitive, params: dict, values):
        """The stored operation that ``fun`` (JAX's one-op callable for ``primitive`` with
        ``params``) would run on ``values``, or None."""
        if not self._same_context(primitive):
            return None
        lookup = self._lookup(fun, values)
        if lookup is None:
            return None
        try:
            return self.loaded[lookup]
        except KeyError:
            pass
        found, signature = None, signature_of(values)
        key = self._key(primitive, params, signature) if signature is not None else None
        if key is not None:
            found = self._load(key)
        self.counts["found" if found is not None else "missing"] += 1
        self.loaded[lookup] = found
        return found

    def _lookup(self, fun, values) -> tuple | None:
        """What ``loaded`` is keyed by: ``fun`` and each value's dtype, shape and weak type
        (what ``signature_of`` describes, without making its text on every call)."""
        lookup = [fun]
        ndarray = np.ndarray
        try:
            for value in values:
                weak = False if type(value) is ndarray else value.weak_type
                lookup.append((value.dtype, value.shape, weak is True))
        except AttributeError:
            return None
        return tuple(lookup)

    def drop(self, fun, values) -> None:
        """Forget the operation ``find`` gave for ``fun`` on ``values`` (it failed)."""
        lookup = self._lookup(fun, values)
        if lookup is not None:
            self.loaded[lookup] = None

    def _load(self, key: str):
        try:
            with open(os.path.join(self.folder, PREFIX + key), "rb") as f:
                blob = f.read(MAX_BYTES + 1)
            if len(blob) > MAX_BYTES:
                return None
            form, stored_key, serialized = pickle.loads(blob)
            if form != FORM or stored_key != key:
                return None
            return self.load_compiled(serialized)
        except Exception:  # noqa: BLE001 - none stored, or one this JAX cannot load
            return None

    def mark(self) -> tuple | None:
        return self.compiles.mark() if self.compiles is not None else None

    def compiled(self, fun, primitive, params: dict, values):
        """For a trusted run (``writable``): the operation ``fun`` (JAX's one-op callable for
        ``primitive`` with ``params``) would run on ``values``, lowered and compiled here (or
        loaded from the compilation cache, as binding it would), and stored where that compiled
        it afresh (one miss, no hit); None where nothing is kept (not writable, another
        configuration, not JAX's plain primitive, an operation this cannot lower): the caller
        binds it then, and ``keep`` stores what that compiled.
        Compiled before it runs rather than lowered again once it has run: under a derivative's
        name stack a second lowering differs from the binding's in what the cache's key leaves
        out (so JAX's memory did not serve it), the compilation cache then gave back its entry,
        which does not serialize whole, and nothing was stored (in a fill of `judge check`, every
        operation of a program under ``jax.vjp``). The values are the executable's either way."""
        direct = self.direct
        if not self.writable or self.compiles is None or direct is None or not self._same_context(primitive) \
                or not direct.plain(primitive) or not direct.ready():
            return None
        lookup = self._lookup(fun, values)
        signature = signature_of(values)
        key = self._key(primitive, params, signature) if signature is not None else None
        if lookup is None or key is None:
            return None
        hits, misses = self.compiles.mark()
        try:
            compiled = fun.lower(*values).compile()
        except Exception:  # noqa: BLE001 - binding it reports what is wrong
            return None
        if self.compiles.mark() == (hits, misses + 1) and \
                not os.path.exists(os.path.join(self.folder, PREFIX + key)) and write(self.folder, key, compiled):
            self.counts["kept"] += 1
        self.loaded[lookup] = compiled  # the next use of the operation in this run
        return compiled

    def keep(self, mark, primitive, params: dict, values) -> None:
        """Store the operation just bound on ``values`` if binding it compiled it afresh (one
        miss of the compilation cache since ``mark``, no hit)."""
        if mark is None or self.compiles.mark() != (mark[0], mark[1] + 1):
            return
        direct = self.direct
        if not self._same_context(primitive) or direct is None or not direct.plain(primitive) \
                or not direct.ready():
            return
        signature = signature_of(values)
        key = self._key(primitive, params, signature) if signature is not None else None
        if key is None or os.path.exists(os.path.join(self.folder, PREFIX + key)):
            return
        try:
            fun = self.direct.callable_of(primitive, **params)
            # the executable the binding just compiled, from JAX's own memory: no new miss or hit
            hits_misses = self.compiles.mark()
            compiled = fun.lower(*values).compile()
            if self.compiles.mark() != hits_misses:
                return
            if write(self.folder, key, compiled):
                self.counts["kept"] += 1
        except Exception:  # noqa: BLE001 - not stored: the next worker binds it as before
            return
