"""Values worked out once per object rather than once per submission: what grading derives from
a problem's spec alone (a case's plan, its inputs as the request carries them, the warm-cache
marker's digest) is the same for every submission of a batch.

``ByIdentity`` keys on the objects themselves, compared by identity, never by equality: a
problem or a case holds NumPy arrays (no useful ``==``), and a problem loaded again (its spec
edited) is another object, so nothing derived from the old one is reused. Each entry keeps its
objects alive, so an ``id`` is never reused while its entry stands; at most ``size`` entries
are kept (all dropped when full). What ``make`` returns is shared by every caller: it must be
treated as read-only.
"""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


class ByIdentity:
    """``get(objects, make)``: ``make()`` once per tuple of objects (by identity)."""

    def __init__(self, size: int = 4096):
        self._found: dict[tuple, tuple] = {}
        self._size = size

    def get(self, objects: tuple, make: Callable[[], T]) -> T:
        key = tuple(map(id, objects))
        found = self._found.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], objects)):
            return found[1]
        value = make()
        if len(self._found) >= self._size:
            self._found.clear()
        self._found[key] = (objects, value)  # one dict store: safe from any thread
        return value
