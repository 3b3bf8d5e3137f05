"""The field checks of the result channel: each raises ``protocol.ProtocolError`` naming the
field when a worker's message is not what the protocol says (``judge.run.boundary``,
``judge.run.summary``)."""

from __future__ import annotations

from judge.run.escaping import escape
from judge.worker.protocol import ProtocolError

#: Largest integer a count may be.
MAX_COUNT = 2 ** 53


def fail(where: str, what: str):
    raise ProtocolError(f"{where}: {what}")


def keys(msg: dict, where: str, required: tuple, optional: tuple = ()) -> None:
    missing = [k for k in required if k not in msg]
    if missing:
        fail(where, f"missing {', '.join(missing)}")
    if not set(msg) <= set(required) | set(optional):
        fail(where, "fields that are not in the protocol")


def obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        fail(where, "expected an object")
    return value


def integer(value, where: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if type(value) is not int or not lo <= value <= hi:
        fail(where, f"expected an integer from {lo} to {hi}")
    return value


def number(value, where: str) -> float:
    if type(value) not in (int, float) or not 0 <= value <= 1e9:  # exact for any int; NaN fails
        fail(where, "expected a finite number of seconds")
    return float(value)


def boolean(value, where: str) -> bool:
    if type(value) is not bool:
        fail(where, "expected true or false")
    return value


def text(value, where: str, cap: int, multiline: bool = False) -> str:
    if not isinstance(value, str):
        fail(where, "expected a string")
    if len(value) > cap:
        fail(where, f"longer than {cap} characters")
    return escape(value, multiline)


def optional(check, value, where: str, *args):
    return None if value is None else check(value, where, *args)
