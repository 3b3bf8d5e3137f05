"""The worker's result channel: ``open_channel`` turns the descriptor the judge gave into one
function, ``send(message)``, that writes each message as a whole line carrying the run's nonce
(the format is in ``protocol``). The worker's entry point (``main``) opens it before the
submission is imported and keeps the function to itself.
"""

from __future__ import annotations

import os

from . import protocol


def open_channel(fd: int, nonce: str | None = None):
    """The result pipe, as one function ``send(message)`` that writes a whole line with os.write
    so nothing sits in a Python buffer.

    Made before the submission is imported: the pipe moves from the descriptor number the judge
    gave (and the submission can read on the command line) to a random high one, and every
    message carries the run's nonce, which the judge checks. The descriptor, the nonce and the
    functions used live only in the closure, so there is no object whose attributes a
    submission could replace. All this only makes forging harder: the submission shares this
    process, and the source gate is what keeps it from reflecting on it (SECURITY.md).
    """
    fd = _hide_fd(fd)
    dumps, write, encoding = protocol.dumps, os.write, "utf-8"

    def send(message: dict) -> None:
        if nonce is not None:
            message = {**message, "nonce": nonce}
        data = dumps(message).encode(encoding)
        while data:
            data = data[write(fd, data):]

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
