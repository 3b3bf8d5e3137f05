"""Reading a worker's result channel: lines in, typed reports recorded on a ``WorkerRun``
(``judge.run.supervisor``), in the documented order, against the run's deadlines and byte
budgets. Nothing here starts or stops a process; the supervisor does, from what this records.
"""

from __future__ import annotations

import os
import selectors
import time

from judge.run import asked, boundary
from judge.run.boundary import Asked, CaseReport, Halt, Loaded, Ready
from judge.worker import protocol


def collect(run, fd: int, started: float, startup_timeout: float,
             case_timeout: float, on_case=lambda: None, run_deadline: float | None = None,
             on_read=lambda first: None) -> None:
    """Read result lines until ``done``, ``halt``, end of pipe, a protocol error, a line that is
    not this worker's, or a deadline.

    Before ``ready`` only the worker has run, so a bad line is a protocol error (the judge's
    fault). After it the submission shares the worker's process: any line that breaks the
    protocol (not JSON, without the run's nonce, outside the schema, out of order, a case that
    was not sent or is reported twice) came from the submission, and the channel is no longer
    trusted. Start-up is timed from the start and from ``ready``; each case from when it became
    due (``loaded``, or the previous case's report); the whole run against ``run_deadline``.

    Everything the pipe holds is read at once (reports that arrived while the judge was busy
    wait there together), and its lines taken in order: ``on_case()`` after each,
    ``on_read(first)`` once after them all, ``first`` being the position of the last case
    reported when the first of them was taken (None while no case is).
    """
    selector = selectors.DefaultSelector()
    selector.register(fd, selectors.EVENT_READ)
    buffer = bytearray()
    run._last = started
    while not run.done and run.halt is None:
        in_cases = run.loaded is not None
        deadline = run._last + (case_timeout if in_cases else startup_timeout)
        phase = "case" if in_cases else "startup"
        if run_deadline is not None and run_deadline < deadline:
            deadline, phase = run_deadline, "run"
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not selector.select(timeout=remaining):
            run.timed_out = True
            run.timeout_phase = phase
            return
        chunk = os.read(fd, 65536)
        if not chunk:
            run.channel_closed = True  # the worker closed the channel: exited or crashed
            return
        buffer += chunk
        if b"\n" in chunk:
            *lines, rest = buffer.split(b"\n")
            buffer = bytearray(rest)
            first = [None]
            stop = _take(run, lines, on_case, first)
            on_read(first[0])
            if stop:
                return
        if len(buffer) > _line_cap(run):
            _too_much(run, _too_long(run))
            return


def _take(run, lines: list[bytes], on_case, first: list) -> bool:
    """Take ``lines`` in order, as ``collect`` says; whether the run's reading ends here."""
    for line in lines:
        run.channel_bytes += len(line) + 1
        if len(line) > _line_cap(run):
            _too_much(run, _too_long(run))
            return True
        if run.channel_bytes > protocol.MAX_CHANNEL_BYTES:
            _too_much(run, f"the result channel passed {protocol.MAX_CHANNEL_BYTES} bytes")
            return True
        now = time.monotonic()
        try:
            accept(run, boundary.decode(line, run.nonce, run.expected), now)
            if getattr(run, "accepted", None) is not None:
                run.accepted.append(line)
        except protocol.ProtocolError as exc:  # texts name fields, never quote the line
            what = boundary.escape(str(exc)[:300])
            if run.ready is None:
                run.protocol_error = what
            else:
                run.tampered = f"{what} arrived on the result channel"
            return True
        if first[0] is None and run.cases:
            first[0] = len(run.cases) - 1
        on_case()
        if run.done or run.halt is not None:
            return True
    return False


def _line_cap(run) -> int:
    """Bytes one line may take: the protocol's cap until the worker is ready, then the budget
    the problem's outputs set (``boundary.Expected.message_bytes``)."""
    if run.ready is None:
        return protocol.MAX_MESSAGE_BYTES
    return min(run.expected.message_bytes, protocol.MAX_MESSAGE_BYTES)


def _too_long(run) -> str:
    if run.ready is None:
        return f"a result message passed {protocol.MAX_MESSAGE_BYTES} bytes"
    return (f"one case's result passed {_line_cap(run):,} bytes, more than this problem's outputs "
            f"need; it was not read")


def _too_much(run, what: str) -> None:
    """The channel carried more than it may: the worker's fault before ``ready``, else the
    submission's output (an oversized honest output looks the same as a flood)."""
    if run.ready is None:
        run.protocol_error = what
    else:
        run.halt = Halt(cause="output_limit", index=None, detail=what)


def accept(run, msg, now: float) -> None:
    """Record one decoded message, checking that it comes in the documented order: ready,
    loaded, each case sent (in order, once; the program of a ``decide`` case before it,
    ``judge.run.asked``), done; a halt at any point after ready."""
    if isinstance(msg, Ready):
        if run.ready is not None:
            raise protocol.ProtocolError("a second 'ready'")
        run.ready = msg
        run._last = now
    elif run.ready is None:
        raise protocol.ProtocolError("a message before 'ready'")
    elif isinstance(msg, Loaded):
        if run.loaded is not None:
            raise protocol.ProtocolError("a second 'loaded'")
        run.loaded = msg
        run._last = now  # the first case is due
    elif isinstance(msg, CaseReport):
        position = len(run.cases)
        if run.loaded is None or not run.loaded.ok or position >= len(run.sent) \
                or msg.index != run.sent[position]:
            raise protocol.ProtocolError("a case report that was not due")
        asked.check(run, msg)
        run.cases[msg.index] = msg
        run.case_times[msg.index] = now - run._last
        run._last = now  # the next case is due
    elif isinstance(msg, Asked):
        asked.record(run, msg)
    elif isinstance(msg, Halt):
        if msg.index is not None and msg.index not in run.sent:
            raise protocol.ProtocolError("a halt in a case that was not sent")
        run.halt = msg
    elif isinstance(msg, boundary.Done):
        if run.loaded is None or (run.loaded.ok and len(run.cases) < run.total):
            raise protocol.ProtocolError("'done' before every case was reported")
        run.done = True
        run.ops = msg.ops
    else:  # pragma: no cover - boundary.decode returns only the types above
        raise protocol.ProtocolError("an unknown message")
