"""A grading process of a batch (``judge.grade.pool``, which documents what crosses): the
judge's own code, grading the entries its batch sends it, in lanes of its own, as a one-process
batch grades them (``batch.grade_entry``), and sending each record back as a line of JSON.

Run as ``python -m judge.grade.lanes --records-fd N [--warm-fd M]`` by the batch's process,
never by hand: settings and entries on stdin, messages on descriptor ``N``; ``M`` is this
process's end of the batch's warm server (relayed by the batch's process).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def _writer(fd: int):
    """``write(message)``: one whole line on descriptor ``fd``, from any thread."""
    lock = threading.Lock()

    def write(message: dict) -> None:
        data = (json.dumps(message) + "\n").encode()
        with lock:
            while data:
                data = data[os.write(fd, data):]

    return write


def _handed_server(fd: int, key: list) -> None:
    """Take the batch's warm server, relayed on socket ``fd``, as this process's server for the
    setup ``key`` (``warm.handed``)."""
    from judge.run import warm

    connection = warm.Connection(socket.socket(fileno=fd))
    connection.start_reading()
    warm.handed[tuple(key)] = connection


def serve(settings: dict, entries, write) -> None:
    """Grade every entry read from ``entries`` (JSON lines, after the ``settings`` line) and
    ``write`` each record; ``{"error": ...}`` instead when this process cannot grade as its
    batch does."""
    from judge.grade import batch, lookalike
    from judge.grade.journal import basis as grading_basis
    from judge.errors import JudgeError
    from judge.problem import spec
    from judge.run import cache, tasks
    from judge.run.settings import Settings

    run = Settings(settings["sandbox"], settings["python"])
    try:
        problem = spec.load(Path(settings["spec"]))
    except JudgeError as exc:
        write({"error": f"the problem could not be loaded: {exc}"})
        return
    how = {"source_gate": settings["gate"], "sandbox": run.sandbox}
    if grading_basis(problem, how) != settings["basis"]:
        write({"error": "the problem's files changed since the batch started"})
        return
    tasks.prepare_soon()
    folder, gate_on = Path(settings["folder"]), bool(settings["gate"])
    shared = lookalike.starter(problem)
    write({"ready": True})

    def one(entry: batch.Entry) -> None:
        write({"record": batch.grade_entry(entry, folder, problem, run, gate_on, shared)})

    with ThreadPoolExecutor(max_workers=max(1, int(settings["lanes"]))) as pool:
        for line in entries:
            message = json.loads(line)
            if "snapshot" in message:  # the batch's copy of the compilation cache, for workers
                if cache.for_workers() is not None:
                    cache.share_snapshot(cache.for_workers(), Path(message["snapshot"]))
                continue
            fields = message["entry"]
            pool.submit(one, batch.Entry(**{**fields, "parts": None if fields["parts"] is None
                                               else tuple(fields["parts"])}))


def main(argv: list[str]) -> int:
    fds = {name: int(value) for name, value in zip(argv[::2], argv[1::2])}
    for fd in fds.values():  # nothing this process starts inherits them
        os.set_inheritable(fd, False)
    write = _writer(fds["--records-fd"])
    from judge.grade import batch  # noqa: F401  (the judge's grading, imported while the batch reads its class)

    stdin = sys.stdin.buffer
    line = stdin.readline()
    if not line:  # let go before it was given anything
        return 0
    settings = json.loads(line)
    if "--warm-fd" in fds and settings.get("warm_key"):
        _handed_server(fds["--warm-fd"], settings["warm_key"])
    serve(settings, stdin, write)
    return 0


if __name__ == "__main__":
    from judge import entry

    entry.end(main(sys.argv[1:]))
