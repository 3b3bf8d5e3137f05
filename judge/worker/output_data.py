"""The worker's view of what a submission returns and raises, as plain data for the result
channel (``protocol``): ``split`` an output into its structure and its arrays, ``fill`` the
structure with the arrays encoded, ``like`` a cotangent in the output's mapping types, and
``describe_error`` an exception. Used by the case runner and ``main``, in the process the
submission shares.
"""

from __future__ import annotations

import os
import re
import traceback

from . import protocol

_MESSAGE_LIMIT = 2000  # characters of an exception message kept
#: Characters of the source line an error names.
_SOURCE_LIMIT = 200
#: How JAX names the scope of the judge's symbolic dims in a message: by its address in memory
#: and the judge's own source line, which differ from one worker and machine to the next.
_SCOPE = re.compile(r"Using symbolic scope \d+ created at [^\n]*?\(dims\) with constraints:")


class TooMany(Exception):
    """An output with more than protocol.MAX_NODES nodes (raised inside ``split``)."""


def describe_error(exc: BaseException, kind: str, submission: str) -> dict:
    """An exception as data, with the last line of the submission it passed through. Every text
    is capped to what the judge accepts (``judge.run.boundary``)."""
    line = source = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(frame.filename) == submission:
            line, source = frame.lineno, (frame.line or None)
    if isinstance(exc, SyntaxError) and line is None and exc.lineno is not None:
        line, source = exc.lineno, (exc.text or "").strip() or None
    try:
        # a SyntaxError's str() adds "(submission.py, line N)": the judge names file and line
        message = exc.msg if isinstance(exc, SyntaxError) and isinstance(exc.msg, str) else str(exc)
        message = protocol.exact_str(message)  # a str subclass may lie about its length
    except BaseException:  # noqa: BLE001 - a submission's exception may refuse to print
        message = "(the exception's text could not be read)"
    if len(message) > _MESSAGE_LIMIT:
        message = message[:_MESSAGE_LIMIT] + " [...]"
    # on the capped text: a line of the scope's opening over and over costs no more than the cap
    message = _SCOPE.sub("The ranges of the dims:", message)
    line = line if isinstance(line, int) and 0 <= line <= 10 ** 9 else None
    return {"kind": kind, "type": _type_name(exc), "message": message, "line": line,
            "source": protocol.exact_str(source)[:_SOURCE_LIMIT] if isinstance(source, str) else None}


def _type_name(value) -> str:
    """The name of ``value``'s type, capped (a class may be named by a str subclass)."""
    return protocol.exact_str(type(value).__name__)[:protocol.MAX_NAME]


def split(jax, np, value, leaves: list, depth: int = 0):
    """Output structure with arrays replaced by slots into ``leaves``.

    What cannot be sent as it is becomes ``{"kind": "malformed", "why": ...}`` (the judge
    reports a wrong answer): a container nested ``protocol.MAX_DEPTH`` deep, a container
    inside itself, a dict key longer than ``protocol.MAX_NAME``, and the whole output when
    it has more than ``protocol.MAX_NODES`` nodes.
    """
    arrays = (jax.Array, jax.core.Tracer, np.ndarray, np.generic)
    budget = [protocol.MAX_NODES]
    walking: set[int] = set()  # ids of the containers on the current path
    start = len(leaves)

    def walk(value, depth):
        budget[0] -= 1
        if budget[0] < 0:
            raise TooMany
        if isinstance(value, arrays):
            leaves.append(value)
            return {"kind": "array", "slot": len(leaves) - 1}
        if not isinstance(value, (dict, list, tuple)):
            return {"kind": "other", "type": _type_name(value)}
        if depth >= protocol.MAX_DEPTH:
            return {"kind": "malformed", "why": "too_deep"}
        if id(value) in walking:
            return {"kind": "malformed", "why": "cyclic"}
        walking.add(id(value))
        try:
            if isinstance(value, dict):
                keys = [protocol.exact_str(str(k)) for k in value]
                if any(len(k) > protocol.MAX_NAME for k in keys):
                    return {"kind": "malformed", "why": "bad_key"}
                return {"kind": "dict", "items": {k: walk(v, depth + 1)
                                                  for k, v in zip(keys, value.values())}}
            return {"kind": "list" if isinstance(value, list) else "tuple",
                    "items": [walk(v, depth + 1) for v in value]}
        finally:
            walking.discard(id(value))

    try:
        return walk(value, depth)
    except TooMany:
        del leaves[start:]
        return {"kind": "malformed", "why": "too_many"}

def malformed(skeleton) -> bool:
    """Does the skeleton from ``split`` hold a malformed node (it is at most
    ``protocol.MAX_DEPTH`` deep: ``split`` stops there)?"""
    kind = skeleton.get("kind")
    if kind == "malformed":
        return True
    items = skeleton.get("items") if kind in ("dict", "list", "tuple") else None
    values = items.values() if isinstance(items, dict) else (items or ())
    return any(malformed(item) for item in values)


def fill(np, skeleton, values):
    """The skeleton from ``_split`` with each slot's array encoded (an array of a dtype the
    channel does not carry becomes an "other")."""
    kind = skeleton["kind"]
    if kind == "array":
        value = values[skeleton["slot"]]
        try:
            arr = np.asarray(value)
        except Exception:  # noqa: BLE001 - not an array of numbers (a PRNG key, say)
            return {"kind": "other", "type": _type_name(value)}
        try:
            return protocol.encode_array(arr)
        except protocol.ProtocolError:  # a dtype or shape the channel does not carry
            return {"kind": "other", "type": f"array {arr.dtype}{list(arr.shape)}"[:protocol.MAX_NAME]}
    if kind == "dict":
        return {"kind": "dict", "items": {k: fill(np, v, values) for k, v in skeleton["items"].items()}}
    if kind in ("list", "tuple"):
        return {"kind": kind, "items": [fill(np, v, values) for v in skeleton["items"]]}
    return skeleton


def like(template, value):
    """``value`` (a cotangent: nested plain dicts) in the mapping types of ``template`` (the
    output), so that a submission returning an OrderedDict is pulled back as it returned it."""
    if isinstance(template, dict) and isinstance(value, dict) and set(template) == set(value):
        items = [(k, like(template[k], value[k])) for k in template]
        try:
            return type(template)(items)
        except Exception:  # noqa: BLE001 - a mapping type that cannot be built from items
            return dict(items)
    return value


def nested(skeleton):
    """Every node below a skeleton node (dict and sequence items, recursively)."""
    items = skeleton.get("items")
    children = items.values() if isinstance(items, dict) else (items or [])
    for child in children:
        yield child
        yield from nested(child)
