"""The message format between the judge process and the worker.

This module is shared by both sides and holds no logic beyond encoding: it imports only the
standard library and NumPy, so the worker can load it before any submission code runs.

Channels
--------
* Request (judge -> worker): one JSON line on the worker's stdin. The worker reads it before
  importing the submission, keeps stdin on a private descriptor and points fd 0 at /dev/null.
  It carries case *inputs* only, never expected outputs. When ``more_cases`` is true, a second
  line ``{"cases": [...]}`` follows with the hidden cases; the judge sends it only after every
  case of the first line (the public examples) has been reported, so nothing shown for an
  example can contain a hidden input. Then stdin is closed (with ``decide`` cases, at the end of
  the run: answers follow)::

      {"protocol": 1,
       "submission": "/abs/path/solution.py",
       "entry_point": "fake_quant_ste",
       "parameters": [{"name": "x", "traced": true}, {"name": "scale", "traced": false}, ...],
       "grad_rule": {"field": "grads", "cotangent": "cotangent", "values": "values"} | null,
       "probes": {"wrt": "x", "names": ["vjp", "jvp"]} | null,   # derivatives to compute
       "derivative": {"wrt": ..., "names": [...]} | null,  # traced into the rules' programs
       "capture_bytes": 4096,                      # per-case cap on captured stdout/stderr
       "message_bytes": 1048576,                   # judge side only: a longer result line is OLE
       "compiled": false,                          # evaluate with jax.jit, not op by op (optional)
       "evaluator": "numpy",                       # op by op: exact ops in NumPy ("jax": all by JAX)
       "nonce": "9f2c...",                         # per run, random; echoed in every message
       "rlimits": {"RLIMIT_CPU": [SOFT, HARD], ...},  # applied by the worker before importing JAX
       "memory_bytes": 2147483648,   # address space the submission may add once JAX is up
       "structure": false,                         # also trace each case without running it
       "reach": false,          # with structure: measure how much of the output a loop reaches
       "report_ops": false,     # list in "done" the operations that missed the compilation cache
       "store_ops": false,  # (a trusted run, its cache writable) store what it compiles: stored_ops
       "more_cases": false,
       "cases": [{"index": 0, "args": {"x": ARRAY, "scale": 0.5, ...},
                  "probe_args": {"cotangent": ARRAY, "tangent": ARRAY}, "factor": 4.0,
                  "symbolic": {"key": "...", "shapes": {"x": ["T", 3]},
                               "symbols": {"T": [1, 4096]}}, "shorten": true}, ...,  # optional; "earlier": trips before the last too
                 {"index": 70, "abstract": {"x": {"shape": [4096], "dtype": "float32"}},
                  "args": {"scale": 0.5, ...}}]}          # trace only, at these shapes

  Every case that runs is run from a program traced once (``traced_once``): the entry with the
  probes' derivatives traced in (and, with ``grad_rule``, the factor as one more input), traced
  once per key and evaluated at each case of the key. A case with ``symbolic`` names its key:
  the dims named in ``shapes`` are symbols over ``symbols``' ranges, the case runs that program
  made concrete at its dims, and a dim read as a number while tracing is an ERROR of kind
  "symbolic". A case without it is keyed by its static signature (its shapes, static values
  and dtypes) and traced at its own shapes. With ``structure``, the message carries
  ``program``, the summary of that one program (``program.py``), which structural rules read.
  At the first case with ``"decide": true`` (hidden, with ``symbolic``) of a key, the worker
  sends ``program`` (below) and reads the judge's answer on stdin, ``{"index": 12, "evaluate":
  false}``, which holds for the key's later ``decide`` cases (an unreadable line is "evaluate").
  A case with ``abstract`` is only traced (``jax.make_jaxpr`` on shapes), never run: its
  message has ``program`` and nothing else but text and ``error``.
  A tree parameter's ``shapes`` (and an ``abstract`` tree's ``shape`` and ``dtype``) are nested
  as the tree, each leaf a list of extents (``{"params": {"w": ["d", "k"], "b": ["k"]}}``); a
  tree not named there is traced at its own leaves' shapes.

* Results (worker -> judge): JSON lines on a dedicated pipe whose descriptor number is given on
  the worker's command line (``--result-fd N``). The submission's stdout and stderr are separate
  pipes and never parsed. Messages, in order:

      {"type": "ready", "protocol": 1, "python": "3.11.7", "jax": "0.10.2", "runtime_mb": 548}
      {"type": "loaded", "ok": true, "time_s": 0.01, "stdout": TEXT, "stderr": TEXT}
      {"type": "loaded", "ok": false, "error": ERROR, "stdout": TEXT, "stderr": TEXT}
      {"type": "case", "index": 0, "time_s": 0.2, "stdout": TEXT, "stderr": TEXT,
       "error": ERROR | null, "output": VALUE | null,
       "probes": {"vjp": VALUE, "jvp": VALUE, "errors": {"jvp": ERROR}} | null,
       "trace": {"primitives": ["add", ...], "custom_vjp_calls": 1} | null,
       "shortened": {"loop": 0, "output": VALUE, "trips": 7, "earlier": {"trips": [0], "outputs": [VALUE]}} | null,
       "evidence": {"custom_vjp_applied": 2, "backward_runs": 1, "instrument_intact": true,
                    "provenance": {"reached": false, "used": true, "returned": true, "rules": 1, "opaque": 0,
                                   "computed": true},  # computed: with the grad rule's values
                    "scaled": VALUE | null, "shifted": [VALUE, VALUE, VALUE, VALUE] | null, "cache_cleared": false} | null,
       "program": {"equations": 412, "primitives": {"dot_general": 6, ...},
                   "live": {"dot_general": 5, ...},
                   "largest": [{"shape": [8, 4096], "dtype": "float32",
                               "primitive": "dot_general", "line": 7 | null}, ...], "omitted": 0,
                   "lines": {"while": 12, ...}, "busiest": [[12, 380], ...],
                   "typed": [["dot_general", ["float16", "float16"], ["float16"], 3, 2, 0], ...],
                   "typed_omitted": 0} | null}
      {"type": "program", "index": 12, "program": {...}, "trace": {"primitives": [...], ...}}
      {"type": "case", "index": 12, "skipped": true, "time_s": 0.01, "stdout": TEXT,
       "stderr": TEXT, "error": null, "output": FORM, "probes": null, "trace": {...},
       "evidence": null, "program": {...}}
      {"type": "halt", "cause": "memory_limit" | "output_limit" | "instrument_tampered",
       "index": 3 | null, "detail": TEXT}
      {"type": "done"}
      {"type": "done", "ops": [{"p": "reduce_sum", "params": {...}, "in": [["float32", [5, 3]]]}]}

  ``evidence`` (only with ``grad_rule``) is measured on one trace of the case whose backward rules'
  outputs are multiplied by a traced factor: ``scaled`` is the output at the case's ``factor`` (a
  power of two the judge draws), ``shifted`` (with ``values``) the output with the custom_vjp
  functions' outputs moved far up and down, then shifted a little up and down (``shift``), ``provenance`` the dataflow of the
  cotangent to the rule's field (``provenance.py``): ``reached`` when some part of the field
  carries the cotangent other than through a backward rule's own cotangent input (a raw cotangent,
  one mixed with x outside every rule, or one still inside a rule), ``used`` when the field depends
  on the cotangent at all, ``returned`` (false if absent) when each part of it is partly what a
  backward rule returned, ``rules`` the rules followed, ``opaque`` the sub-jaxprs not followed.

  ``program`` (for the due ``decide`` case, once per key): the summary and primitives of the
  program its key traced, before any of it is evaluated. A ``decide`` case of a key answered
  ``"evaluate": false`` is ``skipped``: nothing evaluated, the ``program`` and ``trace`` answered,
  ``output`` a FORM (each array ``{"kind": "abstract", "dtype", "shape"}`` at the case's dims).
  The judge accepts it only where it refused that very program for the case's key (``judge.run.asked``):
  a program for another case, or twice, or a case evaluated after its program was refused, is tampering.

  ``ops`` in ``done`` (only with ``report_ops``): the operations the evaluator bound that the
  read-only compilation cache did not hold, as plain data (``shared_ops``), for the judge to
  compile once (``judge.run.shared_compile``); it keeps the well-formed ones, decides nothing.

  ``runtime_mb`` in ``ready`` is the address space JAX had mapped (its CPU backend started) when
  the worker capped its address space at that plus ``memory_bytes``; it varies with the machine
  (cores, installed plugins), the submission's allowance does not.

  Every message also carries ``"nonce"`` from the request; the judge drops the run as tampered
  with when one does not. ``halt`` (after ``ready``, instead of a case's message or ``loaded``)
  ends the run early for one of HALT_CAUSES; the judge decides the remaining cases from it.
  A worker that stops before ``done`` has crashed or exited early, whatever it printed.

Values
------
ARRAY is ``{"kind": "array", "dtype": "float32", "shape": [2, 3], "data": BASE64}`` with the raw
little-endian bytes in C order, so NaN, infinities and -0.0 survive exactly. VALUE is an ARRAY, or
``{"kind": "dict", "items": {KEY: VALUE}}``, ``{"kind": "list"|"tuple", "items": [VALUE, ...]}``,
``{"kind": "other", "type": "str"}`` for anything else (its content is not sent), or
``{"kind": "malformed", "why": WHY}`` where the submission's output could not be sent as it is
(WHY is one of MALFORMED: nested deeper than MAX_DEPTH, cyclic, more than MAX_NODES nodes, a key
longer than MAX_NAME). Containers nest at most MAX_DEPTH deep on both sides of the channel.
ERROR is ``{"kind": KIND, "type": "ValueError", "message": TEXT, "line": 12 | null,
"source": TEXT | null}`` where KIND is one of ERROR_KINDS.

The judge decodes and validates every message once, against a schema of field types and bounds,
into typed frozen reports (``judge.run.boundary``); a change to a message here changes that schema.

Nothing here is ever unpickled: ``np.load``/``pickle`` are not used, and decoding accepts only the
dtypes in ``DTYPES``.
"""

from __future__ import annotations

import base64
import binascii
import json
import math

import numpy as np

PROTOCOL = 1

#: How a worker-side failure is classified. The judge maps these to verdicts.
ERROR_KINDS = (
    "syntax_error",        # the submission does not parse
    "missing_entry_point",  # the module has no callable with the entry point's name
    "import_error",        # an exception while importing the submission
    "exit",                # SystemExit raised (sys.exit, exit(), quit())
    "concretization",      # a traced value was turned into a Python value or NumPy array
    "exception",           # any other exception while running a case
)

#: Why a worker may stop early with a ``halt`` message; each is also a reason code.
HALT_CAUSES = ("memory_limit", "output_limit", "instrument_tampered")

#: dtypes that may cross the channel. bfloat16 comes from ml_dtypes (a JAX dependency).
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool")
_NUMPY_DTYPES = {name: np.dtype(name) for name in DTYPES if name != "bfloat16"}  # made once

#: Hard cap on one result line, so a hostile worker cannot make the judge buffer without bound,
#: and on everything one run may send on the result channel (all its lines together).
MAX_MESSAGE_BYTES = 8 * 1024 * 1024
MAX_CHANNEL_BYTES = 64 * 1024 * 1024

#: How deep containers (dict, list, tuple) may nest in a VALUE: the root is at depth 0, and a
#: container at depth MAX_DEPTH or deeper is sent as ``{"kind": "malformed", "why": "too_deep"}``.
MAX_DEPTH = 16
#: Nodes (containers and leaves) in one VALUE; a larger output is sent as "too_many".
MAX_NODES = 10_000
#: Characters of a dict key or of an "other" value's type name.
MAX_NAME = 100
#: Values a program summary lists in ``largest``, and distinct primitives in ``primitives``.
MAX_LARGEST = 4
#: Lines of the submission a program summary lists in ``busiest`` (``program.py``).
MAX_BUSIEST = 4
MAX_PRIMITIVE_NAMES = 500
#: Distinct shapes a summary of a program traced with symbolic dims lists (``program.py``).
MAX_SHAPES = 256
#: Distinct (primitive, operand dtypes, result dtypes) a program summary counts in ``typed``, and
#: the dtypes of one side of an equation it lists.
MAX_TYPED = 256
MAX_TYPED_VALUES = 16
#: Live loops a program summary describes.
MAX_LOOPS = 64
#: Dimensions of one value in a program summary, and the largest count it may state.
MAX_SUMMARY_NDIM = 64
MAX_SUMMARY_COUNT = 2 ** 53
#: Why a submission's output could not be sent as it is (``{"kind": "malformed", "why": ...}``).
MALFORMED = ("too_deep", "cyclic", "too_many", "bad_key")
#: Dimensions of one ARRAY.
MAX_NDIM = 32

#: The product of an ARRAY's dimensions, zeros counted as ones: an empty array of shape
#: (2**58, 0) holds no data, yet whoever walks its rows walks 2**58 of them.
MAX_EXTENT = 2 ** 31


class ProtocolError(ValueError):
    """A worker message that does not follow this format."""


def _dtype(name: str) -> np.dtype:
    if name not in DTYPES:
        raise ProtocolError("a dtype that is not allowed on the channel")
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return _NUMPY_DTYPES[name]


def dtype_named(name: str) -> np.dtype:
    """The NumPy dtype of a channel dtype name (ProtocolError for any other name)."""
    return _dtype(name)


def check_shape(shape) -> None:
    """ProtocolError unless ``shape`` is a list of at most MAX_NDIM non-negative integers whose
    extent is at most MAX_EXTENT (the same bounds on both sides of the channel)."""
    if not isinstance(shape, list) or not all(type(n) is int and 0 <= n for n in shape):
        raise ProtocolError("an array's shape must be a list of non-negative integers")
    if len(shape) > MAX_NDIM:
        raise ProtocolError("too many dimensions")
    if math.prod(max(n, 1) for n in shape) > MAX_EXTENT:
        raise ProtocolError("a shape whose dimensions multiply past the limit")


def exact_str(text: str) -> str:
    """``text`` as a plain ``str``: a subclass may lie about its length or its slices."""
    return "".join([text])


def encode_array(a) -> dict:
    arr = np.asarray(a)
    name = str(arr.dtype)
    if name not in DTYPES:
        raise ProtocolError(f"cannot send an array of dtype {name}")
    check_shape([int(n) for n in arr.shape])
    data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return {"kind": "array", "dtype": name, "shape": list(arr.shape),
            "data": base64.b64encode(data).decode("ascii")}


def decode_array(msg) -> np.ndarray:
    """An ARRAY as a NumPy array; ProtocolError for anything that is not one."""
    if not isinstance(msg, dict) or msg.get("kind") != "array":
        raise ProtocolError("expected an array")
    if msg.keys() != {"kind", "dtype", "shape", "data"}:
        raise ProtocolError("an array has exactly the keys kind, dtype, shape and data")
    name = msg["dtype"]
    if not isinstance(name, str):
        raise ProtocolError("an array's dtype must be a string")
    dtype = _dtype(name)
    shape = msg["shape"]
    check_shape(shape)
    data = msg["data"]
    if not isinstance(data, str) or not data.isascii():
        raise ProtocolError("array data must be an ASCII base64 string")
    count = math.prod(shape)  # exact: Python integers do not wrap
    if len(data) != 4 * -(-count * dtype.itemsize // 3):  # base64 of exactly that many bytes
        raise ProtocolError("array data that does not fit its shape")
    try:  # ``base64.b64decode(data, validate=True)``, on the ASCII text as it is
        raw = binascii.a2b_base64(data, strict_mode=True)
    except (binascii.Error, ValueError):
        raise ProtocolError("array data is not base64") from None
    if len(raw) != count * dtype.itemsize:
        raise ProtocolError("array data that does not fit its shape")
    try:
        return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)
    except (ValueError, OverflowError):
        raise ProtocolError("a shape that cannot be made") from None


def encode_value(value, _depth: int = 0) -> dict:
    """Encode an argument or a decoded output for the channel (NumPy arrays, dicts, sequences)."""
    if isinstance(value, np.ndarray):
        return encode_array(value)
    if isinstance(value, (dict, list, tuple)) and _depth >= MAX_DEPTH:
        return {"kind": "malformed", "why": "too_deep"}
    if isinstance(value, dict):
        return {"kind": "dict", "items": {str(k): encode_value(v, _depth + 1) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"kind": type(value).__name__, "items": [encode_value(v, _depth + 1) for v in value]}
    if isinstance(value, Malformed):
        return {"kind": "malformed", "why": value.why}
    return {"kind": "other", "type": type(value).__name__[:MAX_NAME]}


def decode_value(msg, _depth: int = 0, _budget: list | None = None, *, form: bool = False):
    """Decode a VALUE into NumPy arrays, dicts, lists and tuples; ``Other`` stands for
    anything else, ``Malformed`` for an output the worker could not send. Raises ProtocolError
    for anything that does not follow the format (text is returned as sent: ``judge.run.boundary``
    escapes it). With ``form`` (a skipped case's FORM), each array is an ``abstract`` one instead:
    a read-only array of that shape and dtype, all zeros, that holds no memory of its own."""
    budget = [MAX_NODES] if _budget is None else _budget
    budget[0] -= 1
    if budget[0] < 0:
        raise ProtocolError(f"a value has more than {MAX_NODES} nodes")
    if not isinstance(msg, dict):
        raise ProtocolError("a value must be an object")
    kind = msg.get("kind")
    if kind == "array" and not form:
        return decode_array(msg)
    if kind == "abstract" and form:
        if set(msg) != {"kind", "dtype", "shape"} or not isinstance(msg["dtype"], str):
            raise ProtocolError("an abstract array has exactly the keys kind, dtype and shape")
        check_shape(msg["shape"])
        return np.broadcast_to(np.zeros((), _dtype(msg["dtype"])), msg["shape"])
    if kind in ("dict", "list", "tuple"):
        if set(msg) != {"kind", "items"}:
            raise ProtocolError("a container has exactly the keys kind and items")
        if _depth >= MAX_DEPTH:
            raise ProtocolError(f"containers nested deeper than {MAX_DEPTH}")
        items = msg["items"]
        if kind == "dict":
            if not isinstance(items, dict):
                raise ProtocolError("dict items must be an object")
            if any(len(k) > MAX_NAME for k in items):
                raise ProtocolError(f"a dict key is longer than {MAX_NAME} characters")
            return {k: decode_value(v, _depth + 1, budget, form=form) for k, v in items.items()}
        if not isinstance(items, list):
            raise ProtocolError("sequence items must be a list")
        seq = [decode_value(v, _depth + 1, budget, form=form) for v in items]
        return seq if kind == "list" else tuple(seq)
    if kind == "other":
        name = msg.get("type")
        if set(msg) != {"kind", "type"} or not isinstance(name, str) or len(name) > MAX_NAME:
            raise ProtocolError("an 'other' value has a type name of at most "
                                f"{MAX_NAME} characters")
        return Other(name)
    if kind == "malformed":
        if set(msg) != {"kind", "why"} or msg["why"] not in MALFORMED:
            raise ProtocolError("a malformed value names one of MALFORMED")
        return Malformed(msg["why"])
    raise ProtocolError("unknown value kind")


class Other:
    """Stands for an output that is not an array, dict or sequence; only its type name is known."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Other) and other.type_name == self.type_name

    def __hash__(self) -> int:
        return hash(self.type_name)


class Malformed:
    """Stands for an output the worker could not send as it is (one of MALFORMED): the
    submission returned it, so it is a wrong answer, not a fault of the channel."""

    TEXT = {"too_deep": f"containers nested deeper than {MAX_DEPTH} levels",
            "cyclic": "a container that contains itself",
            "too_many": f"more than {MAX_NODES} values",
            "bad_key": f"a dict key longer than {MAX_NAME} characters"}

    def __init__(self, why: str):
        self.why = why

    def __repr__(self) -> str:
        return f"<malformed: {self.TEXT.get(self.why, self.why)}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Malformed) and other.why == self.why

    def __hash__(self) -> int:
        return hash(self.why)


def abstract_array(dtype, shape) -> dict:
    """An array of a FORM: its dtype and shape, no values (a dtype the channel does not carry
    is an "other", as ``output_data.fill`` sends the array itself)."""
    name, shape = str(dtype), [int(n) for n in shape]
    if name not in DTYPES:
        return {"kind": "other", "type": f"array {name}{shape}"[:MAX_NAME]}
    check_shape(shape)
    return {"kind": "abstract", "dtype": name, "shape": shape}


def find_malformed(value, _depth: int = 0) -> "Malformed | None":
    """The first Malformed marker in a decoded value, if any."""
    if isinstance(value, Malformed):
        return value
    if _depth < MAX_DEPTH and isinstance(value, (dict, list, tuple)):
        for item in value.values() if isinstance(value, dict) else value:
            found = find_malformed(item, _depth + 1)
            if found is not None:
                return found
    return None


def encode_args(args: dict) -> dict:
    """Case arguments: arrays as ARRAY, trees (nested dicts of arrays) as VALUE, Python numbers
    as themselves."""
    out = {}
    for name, v in args.items():
        out[name] = encode_value(v) if isinstance(v, (np.ndarray, dict)) else v
    return out


def decode_args(msg: dict) -> dict:
    out = {}
    for name, v in msg.items():
        out[name] = decode_value(v) if isinstance(v, dict) else v
    return out


def dumps(message: dict) -> str:
    # allow_nan is off: every float that could be NaN travels inside an ARRAY.
    return json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n"


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # one for all: json.loads makes one a call


def loads(line: bytes | str) -> dict:
    """One message: a JSON object with a string ``type``. The text of a parse error is not kept
    (its position is the sender's choice)."""
    if len(line) > MAX_MESSAGE_BYTES:
        raise ProtocolError("message too large")
    try:  # UTF-8 only for bytes: json.loads would guess UTF-16 or UTF-32 (as it does for a bytearray)
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        if isinstance(text, bytearray):  # as json.loads reads it: "{" then no NUL is UTF-8 there
            utf8 = text[:1] == b"{" and text[1:2] != b"\0"
            text = text.decode("utf-8" if utf8 else json.detect_encoding(text), "surrogatepass")
        msg = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise ProtocolError("a line that is not JSON") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("a message must be an object with a 'type'")
    return msg
