"""Storage and queue outages: what counts as one, and how the log says so.

The database (SQLite) or the queue (SQLite, or Redis) may be unreachable for a while: a full
disk, a Redis restart, a lock held too long. Nothing is lost (a submission is accepted only
once its row is on disk, and the recorder finishes everything when they are back), but the
service must answer clearly and must not bury its log:
- ``is_outage(exc)``: an error of the storage or the queue (``sqlite3``, ``OSError``, Redis's
  connection and timeout errors), as opposed to a bug;
- ``Outage``: one per thing that can be down. ``failed(exc)`` logs the real error the first
  time (with its traceback), then again only after a wait that doubles each time (up to
  ``MOST_S``), saying how many failures it did not log; ``ok()``, once ``QUIET_S`` passed
  without a failure, logs that it is back and for how long it was not. The API answers 503 with
  ``Retry-After`` while it fails;
- ``QueueLogFilter``: the same for Huey's consumer, which logs a traceback every time it cannot
  read the queue (every half second at most, in a grader).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

#: The first wait before an outage is logged again (seconds), doubled at each line, up to MOST_S.
FIRST_S, MOST_S = 5.0, 300.0
#: An outage is over once this long has passed without a failure and something worked (seconds):
#: reads may work while writes fail (a full disk), and must not end it between two failures.
QUIET_S = 5.0
#: What the API's 503 answers put in Retry-After (seconds).
RETRY_AFTER_S = 5


def _redis_errors() -> tuple[type, ...]:
    try:
        from redis import exceptions
    except ImportError:
        return ()
    return (exceptions.ConnectionError, exceptions.TimeoutError, exceptions.BusyLoadingError,
            exceptions.ReadOnlyError)


def is_outage(exc: BaseException) -> bool:
    """Is ``exc`` the storage's or the queue's failure (rather than a bug of the service)?"""
    if isinstance(exc, (sqlite3.OperationalError, sqlite3.DatabaseError)) and not isinstance(
            exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)):
        return True
    return isinstance(exc, (OSError, *_redis_errors()))


class Outage:
    """The state of one thing that can be down (``what``: "the database", "the queue")."""

    def __init__(self, what: str, log: logging.Logger, clock=time.monotonic):
        self.what, self.log, self.clock = what, log, clock
        self.since: float | None = None   # when the current outage began (None: it is up)
        self._next = 0.0                  # when a failure may be logged again
        self._last = 0.0                  # when the last failure was
        self._wait = FIRST_S
        self._failures = self._unsaid = 0
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException, doing: str = "") -> None:
        """``exc`` happened while ``doing``: logged now if it is the first failure or the wait
        has passed, else counted."""
        with self._lock:
            now = self.clock()
            first = self.since is None
            if first:
                self.since, self._next, self._wait = now, now, FIRST_S
                self._failures = self._unsaid = 0
            self._failures += 1
            self._last = now
            if now < self._next:
                self._unsaid += 1
                return
            unsaid, self._unsaid = self._unsaid, 0
            self._next = now + self._wait
            self._wait = min(self._wait * 2, MOST_S)
            down_s = now - self.since
        where = f" while {doing}" if doing else ""
        if first:
            self.log.error("%s is unavailable%s: %s: %s; retrying, and saying so again after "
                           "%.0f s, then less and less often", self.what, where,
                           type(exc).__name__, exc, FIRST_S, exc_info=exc)
        else:
            self.log.error("%s is still unavailable after %.0f s (%d failure(s) not logged)%s: "
                           "%s: %s", self.what, down_s, unsaid, where, type(exc).__name__, exc)

    def ok(self) -> None:
        """It worked: if it was down and has not failed for ``QUIET_S``, say once that it is
        back."""
        if self.since is None:
            return
        with self._lock:
            now = self.clock()
            if self.since is None or now - self._last < QUIET_S:
                return
            down_s, failures = now - self.since, self._failures
            self.since = None
        self.log.warning("%s is available again after %.0f s (%d failure(s))", self.what,
                         down_s, failures)


class QueueLogFilter(logging.Filter):
    """Put on a log handler: Huey consumer records whose error is an outage go through
    ``outage`` (logged once, then backed off); every other record passes as it is."""

    def __init__(self, outage: Outage):
        super().__init__()
        self.outage = outage

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("huey.consumer") or not record.exc_info:
            return True
        exc = record.exc_info[1]
        if exc is None or not is_outage(exc):
            return True
        self.outage.failed(exc, "reading the next grading task")
        return False
