"""Operations a worker had to compile, as plain data, and the process that compiles them once for
every later worker (the judge side is ``judge.run.shared_compile``).

A worker binds with JAX every operation the NumPy evaluator does not compute (``evaluate``), and
JAX compiles it at each new shape unless the judge's compilation cache already holds it. That
cache is read-only to workers, so what one submission's worker compiled, the next one's compiled
again: most of a ``judge check`` was the same small programs compiled once per submission.

* ``OpLog`` (in a worker, beside the submission) notes each operation the evaluator bound that
  missed the cache (JAX's ``cache_misses`` event), described as
  ``{"p": "reduce_sum", "params": {"axes": {"t": [1]}, "out_sharding": null},
  "in": [["float32", [5, 3]]]}``. It is sent in the worker's ``done`` message. A description
  is only a wish: the judge checks its form (``judge.run.shared_compile.check_ops``) and nothing
  in it decides a verdict.
* ``compile_main`` (in a process of the judge's own, which never loads a submission) reads such
  descriptions, one JSON line each, and compiles each operation as JAX's op-by-op path does
  (``dispatch.xla_primitive_callable``), lowered from shapes and never run. A description names
  a primitive of JAX's own and parameters of a few plain kinds; anything else is refused. JAX
  writes each entry into a staging folder, from which it is moved into the cache whole, so a
  worker never reads a half-written entry. The cache key is JAX's own, computed from the
  program: an entry serves exactly the operation it was compiled from.

Parameter values (``Plain.encode``): None, booleans, integers, strings as they are; a float as
``{"f": "1.5"}`` (NaN and infinities too); a tuple as ``{"t": [...]}``; a dtype as
``{"dtype": "float32"}``; a member of one of JAX's enums as ``{"enum": "MODULE:CLASS",
"name": MEMBER}`` (a module of JAX's, loaded already); one of JAX's named tuples in ``TUPLES``
as ``{"nt": CLASS, "f": [...]}``; a jitted call's default sharding or mesh as
``{"special": NAME}``; a jaxpr (the body of a jitted
call, a loop, a branch) as ``{"cj": PROGRAM}`` (closed) or ``{"oj": PROGRAM}``, its equations
described the same way (``Plain._program``), rebuilt in the compiling process by binding them
again. Anything else (a function, a sharding over devices, large constants) is not described.
"""

from __future__ import annotations

import enum
import fcntl
import json
import math
import os
import sys
import threading

import numpy as np

#: Distinct operations one worker reports at most, and bytes of their descriptions in all.
MAX_OPS, MAX_REPORT_BYTES = 256, 512 * 1024
#: Parameter names of one operation; JSON nodes of one description; depth of a value.
MAX_PARAMS, MAX_NODES, MAX_DEPTH = 16, 20000, 24
MAX_INPUTS, MAX_RANK, MAX_STR = 64, 8, 256
#: Elements of the constant arrays one description may carry, in all.
MAX_CONST_ELEMENTS = 1 << 16
#: The dtypes an operation's inputs and parameters may name.
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool")
#: Where the enums a parameter may hold are defined (by JAX, loaded already), and JAX's
#: named tuples (in ``jax.lax``) it may hold.
_ENUM_MODULES = ("jax.", "jaxlib.")
TUPLES = ("GatherDimensionNumbers", "ScatterDimensionNumbers", "ConvDimensionNumbers")
#: Objects a jitted call's parameters hold by default (``jaxapi.plain_defaults``).
SPECIALS = ("unspecified", "mesh")
#: The event JAX records when a program was compiled because the cache did not hold it.
MISS_EVENT = "/jax/compilation_cache/cache_misses"


class NotPlain(Exception):
    """A parameter of a kind a description cannot hold (a function, a sharding, a large array)."""


def _dtype_name(dtype) -> str:
    name = np.dtype(dtype).name
    if name not in DTYPES:
        raise NotPlain("dtype")
    return name


def _dtype(name: str):
    if name not in DTYPES:
        raise ValueError("not a dtype")
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


class Plain:
    """Parameter values to plain JSON data and back (the module's notes), for one JAX."""

    def __init__(self, jax):
        from . import jaxapi

        self.jax, self.lax = jax, jax.lax
        self.ClosedJaxpr, self.Jaxpr, self.Literal = jaxapi.jaxpr_types()
        self.specials = jaxapi.plain_defaults()
        self.jaxapi = jaxapi

    # --- encoding (in a worker) ---------------------------------------------------------------

    def encode(self, value, budget: list, depth: int = 0):
        budget[0] -= 1
        if budget[0] < 0 or depth > MAX_DEPTH:
            raise NotPlain("too large")
        kind = type(value)
        if value is None or kind is bool:
            return value
        if kind is int or isinstance(value, np.integer):
            if abs(int(value)) >= 2 ** 62:
                raise NotPlain("integer out of range")
            return int(value)
        if kind is str:
            if len(value) > MAX_STR:
                raise NotPlain("string too long")
            return value
        if kind is float or isinstance(value, np.floating):
            return {"f": repr(float(value))}
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.dtype):
            return {"dtype": _dtype_name(value)}
        name = kind.__name__
        if isinstance(value, enum.Enum) and kind.__module__.startswith(_ENUM_MODULES) \
                and sys.modules.get(kind.__module__) is not None \
                and getattr(sys.modules[kind.__module__], kind.__qualname__, None) is kind:
            return {"enum": f"{kind.__module__}:{kind.__qualname__}", "name": value.name}
        if name in TUPLES and getattr(self.lax, name, None) is kind:
            return {"nt": name, "f": [self.encode(v, budget, depth + 1) for v in value]}
        if kind is tuple:
            return {"t": [self.encode(v, budget, depth + 1) for v in value]}
        if kind is self.ClosedJaxpr:
            return {"cj": self._program(value.jaxpr, value.consts, budget, depth + 1)}
        if kind is self.Jaxpr:
            return {"oj": self._program(value, [], budget, depth + 1)}
        for special, obj in self.specials.items():
            if value is obj or (kind is type(obj) and value == obj):
                return {"special": special}
        raise NotPlain(name)

    def _program(self, jaxpr, consts, budget: list, depth: int) -> dict:
        """A jaxpr as data: its inputs' avals, its constants (small arrays), its equations
        (primitive, parameters as [name, value] pairs, operands as indices into constants + inputs + results so far,
        or literals) and its outputs; with the argument names and result paths of its debug
        info, which a jitted call's module carries."""
        numbers: dict = {}
        for var in (*jaxpr.constvars, *jaxpr.invars):
            numbers[var] = len(numbers)
        if len(consts) != len(jaxpr.constvars):
            raise NotPlain("constants")
        elements = [0]

        def array(value):
            arr = np.asarray(value)
            elements[0] += arr.size
            if elements[0] > MAX_CONST_ELEMENTS:
                raise NotPlain("large constants")
            from . import protocol

            return [_dtype_name(arr.dtype), list(arr.shape), protocol.encode_array(arr)["data"]]

        def operand(var):
            if isinstance(var, self.Literal):
                aval = var.aval
                value = np.asarray(var.val)
                if value.shape != ():
                    raise NotPlain("array literal")
                return {"lit": [_dtype_name(aval.dtype), self.encode(value.item(), budget, depth + 1),
                                bool(getattr(aval, "weak_type", False))]}
            return numbers[var]

        eqns = []
        for eqn in jaxpr.eqns:
            budget[0] -= len(eqn.invars) + 2
            if budget[0] < 0:
                raise NotPlain("too large")
            params = eqn.primitive.get_bind_params(eqn.params)
            eqns.append([eqn.primitive.name,
                         [[k, self.encode(v, budget, depth + 1)] for k, v in params.items()],
                         [operand(v) for v in eqn.invars], len(eqn.outvars)])
            for var in eqn.outvars:
                numbers[var] = len(numbers)
        info = jaxpr.debug_info
        names = getattr(info, "arg_names", None) or ()
        paths = getattr(info, "result_paths", None) or ()
        return {"in": [[_dtype_name(v.aval.dtype), [int(d) for d in v.aval.shape],
                        bool(getattr(v.aval, "weak_type", False))] for v in jaxpr.invars],
                "consts": [array(c) for c in consts], "eqns": eqns,
                "out": [operand(v) for v in jaxpr.outvars],
                "args": [self.encode(str(n), budget) for n in names],
                "results": [self.encode(str(r), budget) for r in paths]}

    # --- decoding (in the judge's compiling process) ------------------------------------------

    def decode(self, raw, primitives: dict):
        if raw is None or isinstance(raw, (bool, int, str)):
            return raw
        if not isinstance(raw, dict) or len(raw) not in (1, 2):
            raise ValueError("not a parameter value")
        keys = set(raw)
        if keys == {"f"}:
            return float(raw["f"])
        if keys == {"t"}:
            return tuple(self.decode(v, primitives) for v in raw["t"])
        if keys == {"dtype"}:
            return _dtype(raw["dtype"])
        if keys == {"enum", "name"}:
            module, _, qualname = str(raw["enum"]).partition(":")
            kind = getattr(sys.modules.get(module), qualname, None) if module.startswith(_ENUM_MODULES) else None
            if not (isinstance(kind, type) and issubclass(kind, enum.Enum)):
                raise ValueError("not one of JAX's enums")
            return kind[raw["name"]]
        if keys == {"nt", "f"} and raw["nt"] in TUPLES:
            return getattr(self.lax, raw["nt"])(*(self.decode(v, primitives) for v in raw["f"]))
        if keys == {"special"} and raw["special"] in SPECIALS:
            return self.specials[raw["special"]]
        if keys == {"cj"}:
            return self.rebuild(raw["cj"], primitives)
        if keys == {"oj"}:
            closed = self.rebuild(raw["oj"], primitives)
            if closed.consts:
                raise ValueError("an open jaxpr with constants")
            return closed.jaxpr
        raise ValueError("not a parameter value")

    def rebuild(self, raw: dict, primitives: dict):
        """The ClosedJaxpr a ``_program`` description stands for, traced again by binding each
        equation's primitive (so JAX itself builds it)."""
        jax = self.jax
        consts = []
        for dtype, shape, data in raw["consts"]:
            from . import protocol

            consts.append(protocol.decode_array({"kind": "array", "dtype": dtype, "shape": shape,
                                                 "data": data}))
        eqns = []
        for name, params, operands, count in raw["eqns"]:
            primitive = primitives.get(name)
            if primitive is None:
                raise ValueError("not one of JAX's primitives")
            eqns.append((primitive, {str(k): self.decode(v, primitives) for k, v in params},
                         operands, int(count)))

        def literal(item):
            dtype, value, weak = item["lit"]
            value = self.decode(value, primitives)
            return value if weak else _dtype(dtype).type(value)

        def read(env, item):
            return env[item] if type(item) is int else literal(item)

        def program(*args):
            env = list(consts) + list(args)
            for primitive, params, operands, count in eqns:
                out = primitive.bind(*(read(env, item) for item in operands), **params)
                out = list(out) if primitive.multiple_results else [out]
                if len(out) != count:
                    raise ValueError("an equation with other results")
                env.extend(out)
            return [read(env, item) for item in raw["out"]]

        avals = [jax.ShapeDtypeStruct(tuple(shape), _dtype(dtype), weak_type=bool(weak))
                 for dtype, shape, weak in raw["in"]]
        closed = jax.make_jaxpr(program)(*avals)
        if raw["args"] or raw["results"]:
            closed = self.jaxapi.with_names(closed, raw["args"], raw["results"])
        return closed


def describe(primitive, params: dict, invars, plain: Plain) -> dict | None:
    """One bound operation as plain data, or None where it cannot be (``Plain.encode``)."""
    try:
        name = primitive.name
        if type(name) is not str or not 0 < len(name) <= 64 or len(params) > MAX_PARAMS:
            return None
        budget = [MAX_NODES]
        encoded = {}
        for key, value in params.items():
            if type(key) is not str or len(key) > 64:
                return None
            encoded[key] = plain.encode(value, budget, 1)
        inputs = []
        for var in invars:
            shape = [int(d) for d in var.aval.shape]
            if len(shape) > MAX_RANK or len(inputs) >= MAX_INPUTS:
                return None
            inputs.append([_dtype_name(var.aval.dtype), shape])
    except Exception:  # noqa: BLE001 - an extended dtype, a symbolic dim, a foreign primitive
        return None
    return {"p": name, "params": encoded, "in": inputs}


class OpLog:
    """The operations a worker's evaluator bound that missed the compilation cache, each once,
    at most ``MAX_OPS`` and ``MAX_REPORT_BYTES``. The evaluator calls ``note`` after a bind."""

    def __init__(self, jax):
        self.plain = Plain(jax)
        self.misses = 0
        self.size = 0
        self.ops: dict[str, dict] = {}
        jax.monitoring.register_event_listener(self._event)

    def _event(self, event, *args, **kwargs) -> None:
        if event == MISS_EVENT:
            self.misses += 1

    def note(self, eqn, params: dict, misses_before: int) -> None:
        """Note ``eqn`` (bound with ``params``) if its binding compiled something."""
        if self.misses == misses_before or len(self.ops) >= MAX_OPS:
            return
        op = describe(eqn.primitive, params, eqn.invars, self.plain)
        if op is None:
            return
        text = json.dumps(op, sort_keys=True)
        if text not in self.ops and self.size + len(text) <= MAX_REPORT_BYTES:
            self.size += len(text)
            self.ops[text] = op

    def report(self) -> list[dict]:
        return list(self.ops.values())


# --- the judge's compiling process --------------------------------------------------------------

def compile_one(op: dict, primitives: dict, plain: Plain, callable_of) -> None:
    """Compile ``op`` into the cache JAX is pointed at, from shapes, as binding it on values
    would; raises on anything wrong."""
    jax = plain.jax
    primitive = primitives.get(op["p"])
    if primitive is None:
        raise ValueError("not one of JAX's primitives")
    params = {str(k): plain.decode(v, primitives) for k, v in op["params"].items()}
    inputs = []
    for dtype, shape in op["in"]:
        if not all(type(d) is int and 0 <= d < 2 ** 31 for d in shape) or math.prod(shape) > 2 ** 31:
            raise ValueError("not an input")
        inputs.append((_dtype(dtype), tuple(shape)))
    if primitive.name in ("jit", "pjit"):
        plain.jaxapi.compile_jit(params["jaxpr"], params, inputs)
        return
    shapes = [jax.ShapeDtypeStruct(shape, dtype) for dtype, shape in inputs]
    callable_of(primitive, **params).lower(*shapes).compile()


def _publish(staging: str, cache: str) -> None:
    """Move each entry JAX wrote into ``staging`` into ``cache``, whole (a rename)."""
    for name in os.listdir(staging):
        source = os.path.join(staging, name)
        if os.path.isfile(source):
            os.replace(source, os.path.join(cache, name))


def _idle_priority() -> None:
    """Run only on what the workers leave idle: the lowest nice value and, where the kernel
    has it, the idle scheduling class; the session's autogroup (each worker's session is
    one, weighed equally) at the lowest weight too."""
    def autogroup():
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")

    for attempt in (lambda: os.nice(19),
                    lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)), autogroup):
        try:
            attempt()
        except (OSError, AttributeError, ValueError):
            pass


#: Seconds the compiling process goes on once its command has closed its input: it compiles
#: what the command left pending, at the lowest priority (an author's next check finds it).
LINGER_S = 120.0
#: Files in the cache folder (``judge.run.shared_compile``): the keys of the operations done
#: (compiled, or refused), a line each; the operations left to compile, a JSON line each; the
#: lock that lets one process at a time go on with those.
INDEX, PENDING, LOCK = ".shared-ops", ".shared-ops-pending", ".shared-ops-lock"
#: Bytes of the pending file read, at most.
MAX_PENDING_BYTES = 8 << 20


def _done(cache: str) -> set:
    """The keys in the cache's index."""
    try:
        with open(os.path.join(cache, INDEX), encoding="ascii", errors="replace") as f:
            return set(f.read().split())
    except OSError:
        return set()


def _pending(cache: str, done: set) -> list:
    """The pending file's operations not done yet, as ``(key, op)``."""
    found = []
    try:
        with open(os.path.join(cache, PENDING), "rb") as f:
            lines = f.read(MAX_PENDING_BYTES).split(b"\n")
        for line in lines:
            try:
                item = json.loads(line)
                key, op = str(item["id"])[:64], item["op"]
            except (ValueError, KeyError, TypeError):
                continue
            if key not in done:
                found.append((key, op))
    except OSError:
        pass
    return found


def _stop_after(seconds: float, staging: str) -> None:
    """End the process ``seconds`` from now, whatever it is doing (its folders removed)."""
    import shutil
    import time

    time.sleep(seconds)
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(os.environ.get("HOME", staging), ignore_errors=True)
    os._exit(0)


def compile_main() -> None:
    """Read ``{"id": KEY, "op": ...}`` lines on stdin, compile each and add its KEY to the
    cache's index (a refused one too); answer ``{"id": KEY, "ok": true}`` or ``{"id": KEY,
    "ok": false, "why": ...}`` on stdout while the judge reads them. At the end of stdin, go on
    with the pending file for at most ``LINGER_S`` seconds. JAX writes into
    $JAX_COMPILATION_CACHE_DIR (the staging folder, removed at the end, with $HOME);
    $JUDGE_SHARED_CACHE is the cache."""
    import shutil
    import warnings

    if os.environ.get("JUDGE_COMPILE_IDLE", "1") != "0":
        _idle_priority()
    warnings.filterwarnings("ignore")
    cache, staging = os.environ["JUDGE_SHARED_CACHE"], os.environ["JAX_COMPILATION_CACHE_DIR"]
    try:
        import jax

        from . import jaxapi

        primitives, callable_of = jaxapi.primitives(), jaxapi.primitive_callable()
        plain = Plain(jax)
        answering = [True]

        def one(ident: str, op) -> None:
            try:
                compile_one(op, primitives, plain, callable_of)
                _publish(staging, cache)
                answer = {"id": ident, "ok": True}
            except Exception as exc:  # noqa: BLE001 - a description this JAX cannot compile
                answer = {"id": ident, "ok": False, "why": f"{type(exc).__name__}: {exc}"[:200]}
            with open(os.path.join(cache, INDEX), "a", encoding="ascii") as f:
                f.write(f"{ident}\n")  # a line per write: appends of processes interleave whole
            if answering[0]:
                try:
                    sys.stdout.write(json.dumps(answer) + "\n")
                    sys.stdout.flush()
                except (OSError, ValueError):  # the judge has gone
                    answering[0] = False

        for line in sys.stdin:
            try:
                item = json.loads(line)
                ident, op = str(item["id"])[:64], item["op"]
            except (ValueError, KeyError, TypeError):
                continue
            one(ident, op)
        # The pending file, by one process of the cache's at a time, for at most LINGER_S.
        lock = os.open(os.path.join(cache, LOCK), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return  # another one is at it
        threading.Thread(target=_stop_after, args=(LINGER_S, staging), daemon=True).start()
        for ident, op in _pending(cache, _done(cache)):
            if ident not in _done(cache):  # what an earlier command's process did meanwhile
                one(ident, op)
        if not _pending(cache, _done(cache)):  # every one done: nothing is pending any more
            try:
                os.unlink(os.path.join(cache, PENDING))
            except FileNotFoundError:
                pass
    except OSError:  # the cache folder went away
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(os.environ.get("HOME", staging), ignore_errors=True)
