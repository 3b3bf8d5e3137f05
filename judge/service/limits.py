"""Per-token limits, so that one client cannot starve the others: a rate limit on submissions
(a token bucket: ``rate`` per minute, bursts of up to ``rate``), one on every request with the
token, reads included (``request_rate``, likewise), a bound on a token's unfinished
submissions (``max_pending``) and a bound on the whole queue (``max_queue``). Beyond any of them
the API answers 429 with a ``Retry-After``. (The queue itself serves the tokens in turns:
``judge.service.store.Store.add``.)"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    rate: int = 60           # submissions per minute per token (and the largest burst)
    max_pending: int = 100   # queued or running submissions per token
    max_queue: int = 1000    # queued or running submissions in all
    request_rate: int = 600  # requests per minute per token, reads included (and the burst)


class RateLimiter:
    """A token bucket per owner; ``take(owner)`` is 0 when a submission may go now, else the
    seconds until one may."""

    def __init__(self, per_minute: int, clock=time.monotonic):
        self.capacity = float(per_minute)
        self.per_second = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, owner: str) -> float:
        if self.capacity <= 0:
            return 60.0
        with self._lock:
            now = self._clock()
            level, then = self._buckets.get(owner, (self.capacity, now))
            level = min(self.capacity, level + (now - then) * self.per_second)
            if level < 1.0:
                self._buckets[owner] = (level, now)
                return (1.0 - level) / self.per_second
            self._buckets[owner] = (level - 1.0, now)
            return 0.0
