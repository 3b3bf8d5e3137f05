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
  example can contain a hidden input. Then stdin is closed::

      {"protocol": 1,
       "submission": "/abs/path/solution.py",
       "entry_point": "fake_quant_ste",
       "parameters": [{"name": "x", "traced": true}, {"name": "scale", "traced": false}, ...],
       "grad_rule": {"field": "grads"} | null,     # instrument custom_vjp and perturb its backward rule
       "probes": {"wrt": "x", "names": ["vjp", "jvp"]} | null,   # derivatives to compute
       "capture_bytes": 4096,                      # per-case cap on captured stdout/stderr
       "compiled": false,                          # evaluate with jax.jit, not op by op (optional)
       "nonce": "9f2c...",                         # per run, random; echoed in every message
       "rlimits": {"RLIMIT_AS": [SOFT, HARD], ...},  # applied by the worker before importing JAX
       "more_cases": false,
       "cases": [{"index": 0, "args": {"x": ARRAY, "scale": 0.5, ...},
                  "probe_args": {"cotangent": ARRAY, "tangent": ARRAY}}, ...]}

* Results (worker -> judge): JSON lines on a dedicated pipe whose descriptor number is given on
  the worker's command line (``--result-fd N``). The submission's stdout and stderr are separate
  pipes and never parsed. Messages, in order:

      {"type": "ready", "protocol": 1, "python": "3.11.7", "jax": "0.10.2"}
      {"type": "loaded", "ok": true, "time_s": 0.01, "stdout": TEXT, "stderr": TEXT}
      {"type": "loaded", "ok": false, "error": ERROR, "stdout": TEXT, "stderr": TEXT}
      {"type": "case", "index": 0, "time_s": 0.2, "stdout": TEXT, "stderr": TEXT,
       "error": ERROR | null,
       "output": VALUE | null,
       "probes": {"vjp": VALUE, "jvp": VALUE, "errors": {"jvp": ERROR}} | null,
       "trace": {"primitives": ["add", ...], "custom_vjp_calls": 1} | null,
       "evidence": {"custom_vjp_applied": 2, "backward_runs": 1,
                    "perturbed": VALUE | null, "cache_cleared": false} | null}
      {"type": "halt", "cause": "memory_limit" | "output_limit" | "instrument_tampered",
       "index": 3 | null, "detail": TEXT}
      {"type": "done"}

  Every message also carries ``"nonce"`` from the request; the judge drops the run as tampered
  with when one does not. ``halt`` (after ``ready``, instead of a case's message or ``loaded``)
  ends the run early for one of HALT_CAUSES; the judge decides the remaining cases from it.
  A worker that stops before ``done`` has crashed or exited early, whatever it printed.

Values
------
ARRAY is ``{"kind": "array", "dtype": "float32", "shape": [2, 3], "data": BASE64}`` with the raw
little-endian bytes in C order, so NaN, infinities and -0.0 survive exactly. VALUE is an ARRAY, or
``{"kind": "dict", "items": {KEY: VALUE}}``, ``{"kind": "list"|"tuple", "items": [VALUE, ...]}``,
or ``{"kind": "other", "type": "str"}`` for anything else (its content is not sent).
ERROR is ``{"kind": KIND, "type": "ValueError", "message": TEXT, "line": 12 | null,
"source": TEXT | null}`` where KIND is one of ERROR_KINDS.

Nothing here is ever unpickled: ``np.load``/``pickle`` are not used, and decoding accepts only the
dtypes in ``DTYPES``.
"""

from __future__ import annotations

import base64
import json

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

#: Hard cap on one result line, so a hostile worker cannot make the judge buffer without bound.
MAX_MESSAGE_BYTES = 8 * 1024 * 1024


class ProtocolError(ValueError):
    """A worker message that does not follow this format."""


def _dtype(name: str) -> np.dtype:
    if name not in DTYPES:
        raise ProtocolError(f"dtype {name!r} is not allowed on the channel")
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def encode_array(a) -> dict:
    arr = np.asarray(a)
    name = str(arr.dtype)
    if name not in DTYPES:
        raise ProtocolError(f"cannot send an array of dtype {name}")
    data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return {"kind": "array", "dtype": name, "shape": list(arr.shape),
            "data": base64.b64encode(data).decode("ascii")}


def decode_array(msg) -> np.ndarray:
    if not isinstance(msg, dict) or msg.get("kind") != "array":
        raise ProtocolError("expected an array")
    dtype = _dtype(msg.get("dtype"))
    shape = msg.get("shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) and 0 <= n for n in shape):
        raise ProtocolError(f"bad shape {shape!r}")
    if len(shape) > 32:
        raise ProtocolError("too many dimensions")
    data = msg.get("data")
    if not isinstance(data, str):
        raise ProtocolError("array data must be a base64 string")
    raw = base64.b64decode(data.encode("ascii"), validate=True)
    count = int(np.prod(shape, dtype=np.int64))
    if len(raw) != count * dtype.itemsize:
        raise ProtocolError(f"array data has {len(raw)} bytes, shape {shape} needs "
                            f"{count * dtype.itemsize}")
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)


def encode_value(value, _depth: int = 0) -> dict:
    """Encode an argument or a decoded output for the channel (NumPy arrays, dicts, sequences)."""
    if _depth > 16:
        return {"kind": "other", "type": "nested too deeply"}
    if isinstance(value, np.ndarray):
        return encode_array(value)
    if isinstance(value, dict):
        return {"kind": "dict", "items": {str(k): encode_value(v, _depth + 1) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"kind": type(value).__name__, "items": [encode_value(v, _depth + 1) for v in value]}
    return {"kind": "other", "type": type(value).__name__}


def decode_value(msg, _depth: int = 0):
    """Decode a VALUE into NumPy arrays, dicts and lists; ``Other`` stands for anything else."""
    if _depth > 16:
        raise ProtocolError("value nested too deeply")
    if not isinstance(msg, dict):
        raise ProtocolError("a value must be an object")
    kind = msg.get("kind")
    if kind == "array":
        return decode_array(msg)
    if kind == "dict":
        items = msg.get("items")
        if not isinstance(items, dict):
            raise ProtocolError("dict items must be an object")
        return {str(k): decode_value(v, _depth + 1) for k, v in items.items()}
    if kind in ("list", "tuple"):
        items = msg.get("items")
        if not isinstance(items, list):
            raise ProtocolError("sequence items must be a list")
        seq = [decode_value(v, _depth + 1) for v in items]
        return seq if kind == "list" else tuple(seq)
    if kind == "other":
        return Other(str(msg.get("type", "?"))[:100])
    raise ProtocolError(f"unknown value kind {kind!r}")


class Other:
    """Stands for an output that is not an array, dict or sequence; only its type name is known."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Other) and other.type_name == self.type_name


def encode_args(args: dict) -> dict:
    """Case arguments: arrays as ARRAY, Python numbers as themselves."""
    out = {}
    for name, v in args.items():
        out[name] = encode_array(v) if isinstance(v, np.ndarray) else v
    return out


def decode_args(msg: dict) -> dict:
    out = {}
    for name, v in msg.items():
        out[name] = decode_array(v) if isinstance(v, dict) else v
    return out


def dumps(message: dict) -> str:
    # allow_nan is off: every float that could be NaN travels inside an ARRAY.
    return json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n"


def loads(line: bytes | str) -> dict:
    if len(line) > MAX_MESSAGE_BYTES:
        raise ProtocolError("message too large")
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("a message must be an object with a 'type'")
    return msg
