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
* ``op_compiler`` (a process of the judge's own, which never loads a submission) reads such
  descriptions and compiles each operation into the cache, from its description and shapes
  alone. A description names a primitive of JAX's own and parameters of a few plain kinds
  (below); anything else is refused.

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
import json
import math
import sys

import numpy as np

from . import protocol

#: Distinct operations one worker reports at most, and bytes of their descriptions in all.
MAX_OPS, MAX_REPORT_BYTES = 256, 512 * 1024
#: Parameter names of one operation; JSON nodes of one description; depth of a value.
MAX_PARAMS, MAX_NODES, MAX_DEPTH = 16, 20000, 24
MAX_INPUTS, MAX_RANK, MAX_STR = 64, 8, 256
#: Elements of one value of a description; how far a scan may be unrolled.
MAX_ELEMENTS, MAX_UNROLL = 2 ** 31, 64
#: Elements of the constant arrays one description may carry, in all.
MAX_CONST_ELEMENTS = 1 << 16
#: The dtypes an operation's inputs and parameters may name (those of the result channel).
DTYPES = protocol.DTYPES
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


def check_shape(shape) -> tuple:
    """``shape`` as a tuple, if it has at most ``MAX_RANK`` extents and ``MAX_ELEMENTS``
    elements; ValueError otherwise."""
    shape = tuple(shape)
    if len(shape) > MAX_RANK or not all(type(d) is int and 0 <= d < 2 ** 31 for d in shape) \
            or math.prod(shape) > MAX_ELEMENTS:
        raise ValueError("not a shape an operation of a submission has")
    return shape


def dtype_of(name: str):
    """The NumPy dtype named ``name`` (one of ``DTYPES``); ValueError for any other name."""
    try:
        return protocol.dtype_named(name)
    except protocol.ProtocolError:
        raise ValueError("not a dtype") from None


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
            return dtype_of(raw["dtype"])
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

    def params(self, pairs, primitives: dict) -> dict:
        """An equation's parameters decoded from ``(name, value)`` pairs. Options to the compiler
        (a jitted call's ``compiler_options_kvs``) are refused: they can make XLA write files
        (``xla_dump_to``) wherever the compiling process may."""
        params = {str(k): self.decode(v, primitives) for k, v in pairs}
        if params.get("compiler_options_kvs"):
            raise ValueError("options to the compiler")
        unroll = params.get("unroll", 1)  # a scan unrolled at lowering, in Python
        if not (type(unroll) is bool or (type(unroll) is int and 0 <= unroll <= MAX_UNROLL)):
            raise ValueError("a scan unrolled too far")
        return params

    def rebuild(self, raw: dict, primitives: dict):
        """The ClosedJaxpr a ``_program`` description stands for, traced again by binding each
        equation's primitive (so JAX itself builds it)."""
        jax = self.jax
        consts = []
        for dtype, shape, data in raw["consts"]:
            consts.append(protocol.decode_array({"kind": "array", "dtype": dtype, "shape": shape,
                                                 "data": data}))
        eqns = []
        for name, params, operands, count in raw["eqns"]:
            primitive = primitives.get(name)
            if primitive is None:
                raise ValueError("not one of JAX's primitives")
            eqns.append((primitive, self.params(params, primitives),
                         operands, int(count)))

        def literal(item):
            dtype, value, weak = item["lit"]
            value = self.decode(value, primitives)
            return value if weak else dtype_of(dtype).type(value)

        def read(env, item):
            return env[item] if type(item) is int else literal(item)

        def program(*args):
            env = list(consts) + list(args)
            for primitive, params, operands, count in eqns:
                out = primitive.bind(*(read(env, item) for item in operands), **params)
                out = list(out) if primitive.multiple_results else [out]
                if len(out) != count:
                    raise ValueError("an equation with other results")
                for value in out:  # before XLA sees it: a product past its extents aborts it
                    check_shape(getattr(getattr(value, "aval", None), "shape", ()))
                env.extend(out)
            return [read(env, item) for item in raw["out"]]

        avals = [jax.ShapeDtypeStruct(check_shape(shape), dtype_of(dtype), weak_type=bool(weak))
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

    def note(self, eqn, params: dict, misses_before: int, primitive=None) -> None:
        """Note ``eqn`` (bound with ``params``, as ``primitive`` where given: the one its
        binding called) if its binding compiled something."""
        if self.misses == misses_before or len(self.ops) >= MAX_OPS:
            return
        op = describe(primitive if primitive is not None else eqn.primitive, params, eqn.invars, self.plain)
        if op is None:
            return
        text = json.dumps(op, sort_keys=True)
        if text not in self.ops and self.size + len(text) <= MAX_REPORT_BYTES:
            self.size += len(text)
            self.ops[text] = op

    def report(self) -> list[dict]:
        return list(self.ops.values())
