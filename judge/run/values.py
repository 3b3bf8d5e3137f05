"""Values on the result channel (a case's output, its scaled output, a probe's result): decoded
into NumPy arrays, dicts, lists and tuples (``protocol.decode_value``), every dict key and type
name escaped (``judge.run.escaping``), for ``judge.run.boundary``. The commonest value, a dict
of a few arrays under plain keys, takes a shorter path to the very same result."""

from __future__ import annotations

from judge.run.escaping import escape
from judge.run.fields import fail
from judge.worker import protocol
from judge.worker.protocol import ProtocolError

#: the one type a set of JSON strings' types may hold
STR = frozenset((str,))


def value(raw, where: str = "value"):
    """A VALUE decoded (``protocol.decode_value``) with its dict keys and type names escaped."""
    found = _arrays(raw)
    if found is not None:
        return found
    try:
        return clean(protocol.decode_value(raw))
    except ProtocolError as exc:
        fail(where, str(exc))


def _arrays(raw) -> dict | None:
    """The commonest VALUE, a dict of a few arrays under plain keys, decoded as ``value`` decodes
    it (keys with nothing to escape, each array by ``protocol.decode_array``); None for anything
    else, a bad array included, which ``value`` then decodes, or refuses, in full."""
    if type(raw) is not dict or raw.get("kind") != "dict" or raw.keys() != {"kind", "items"}:
        return None
    items = raw["items"]
    if type(items) is not dict or len(items) > 64 or not set(map(type, items)) <= STR:
        return None
    keys = "".join(items)
    if max(map(len, items), default=0) > protocol.MAX_NAME or not (keys.isascii() and keys.isprintable()):
        return None
    if not all(type(v) is dict and v.get("kind") == "array" for v in items.values()):
        return None
    try:
        return {k: protocol.decode_array(v) for k, v in items.items()}
    except ProtocolError:
        return None


def clean(decoded):
    """A decoded VALUE with its dict keys and type names escaped."""
    if isinstance(decoded, protocol.Other):
        return protocol.Other(escape(decoded.type_name))
    if isinstance(decoded, dict):
        return {escape(k): clean(v) for k, v in decoded.items()}
    if isinstance(decoded, (list, tuple)):
        items = [clean(v) for v in decoded]
        return items if isinstance(decoded, list) else tuple(items)
    return decoded
