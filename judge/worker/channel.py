"""The worker's result channel: ``open_channel`` turns the descriptor the judge gave into one
function, ``send(message, hold=False)``, that writes each message as a whole line carrying the
run's nonce (the format is in ``protocol``). The worker's entry point (``main``) opens it before
the submission is imported and keeps the function to itself.

Case reports come many to a second, and the judge process wakes up and reads once per write: a
report sent with ``hold`` is written at once when the channel has been quiet for ``HOLD_S``, else
kept back with those that follow it and written with them, at most ``HOLD_S`` after the last
write (by a thread of the channel's own, so a case that runs long never keeps an earlier report
back longer). A message sent without ``hold`` writes everything held first, then itself; so does
``send(None)``, which the worker calls before it waits for the judge, and the worker never exits
with anything held. A case's time is the worker's own measure (``time_s``); the judge's clock
sees a held report at most ``HOLD_S`` late, far inside any time limit.
"""

from __future__ import annotations

import os
import threading
import time

from . import protocol

#: The longest a case report is kept back to be written with the next ones (seconds).
HOLD_S = 0.005
#: Reports held past this many bytes are written at once (a pipe's buffer).
HOLD_BYTES = 65536


def open_channel(fd: int, nonce: str | None = None, hold_s: float = HOLD_S):
    """The result pipe, as one function ``send(message, hold=False)`` that writes whole lines
    with os.write, so nothing sits in a Python buffer but the reports held (see above);
    ``send(None)`` writes those now.

    Made before the submission is imported: the pipe moves from the descriptor number the judge
    gave (and the submission can read on the command line) to a random high one, and every
    message carries the run's nonce, which the judge checks. The descriptor, the nonce and the
    functions used live only in closures, so there is no object whose attributes a
    submission could replace. All this only makes forging harder: the submission shares this
    process, and the source gate is what keeps it from reflecting on it (SECURITY.md).
    """
    fd = _hide_fd(fd)
    dumps, write, encoding, clock = protocol.dumps, os.write, "utf-8", time.monotonic
    lock, held, due = threading.Lock(), bytearray(), threading.Event()
    last = [float("-inf")]  # when the channel was last written

    def flush() -> None:  # with ``lock`` held
        data = bytes(held)
        held.clear()
        while data:
            data = data[write(fd, data):]
        last[0] = clock()

    def send(message: dict | None, hold: bool = False) -> None:
        with lock:
            if message is not None:
                if nonce is not None:
                    message = {**message, "nonce": nonce}
                held.extend(dumps(message).encode(encoding))
                if hold and clock() - last[0] < hold_s and len(held) < HOLD_BYTES:
                    due.set()  # the writer thread writes it, with whatever follows, soon
                    return
            if held:
                flush()

    def writer() -> None:
        while True:
            due.wait()
            with lock:
                wait = last[0] + hold_s - clock()
            if wait > 0:
                time.sleep(wait)
            with lock:
                due.clear()
                if held:
                    flush()

    threading.Thread(target=writer, name="judge-result-channel", daemon=True).start()
    return send


def _hide_fd(fd: int) -> int:
    """Move ``fd`` to a free descriptor at a random high number, not inherited by children."""
    import random
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    high = min(soft if soft != resource.RLIM_INFINITY else 4096, 4096)
    low = min(256, high // 2)
    pick = random.SystemRandom()
    for _ in range(64):
        target = pick.randrange(low, high)
        try:
            os.fstat(target)
        except OSError:
            os.dup2(fd, target, inheritable=False)
            os.close(fd)
            return target
    os.set_inheritable(fd, False)
    return fd
