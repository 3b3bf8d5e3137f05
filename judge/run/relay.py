"""Relaying a warm server to a client over a Unix socket, in the fork server's own protocol
(``judge.worker.forkserver``): ``judge serve`` relays its server to other judge commands, and a
batch's process relays its server to its grading processes (``judge.grade.pool``).

``relay`` answers the client with ``ready`` (with where the server imported JAX from, and what
of its lock-down does not hold here, as the server said; or ``failed`` where there is no
server), forwards
each ``run`` (with its descriptors) to the server ``server_of()`` gives at that moment and each
``kill`` to the server of that run, and sends each ``exited`` back. A run belongs to its client:
when the client goes away, the runs it left are killed. Malformed messages are ignored; nothing
a client sends is unpickled.
"""

from __future__ import annotations

import json
import os
import socket
import threading

from judge.run import warm


def relay(client: socket.socket, server_of, counted=None,
          unavailable: str = "warm workers are not available") -> None:
    """Serve ``client`` until it closes. ``server_of()``: the server for the next run (it may
    wait for one to be ready; None: there is none, so the client is told ``unavailable``);
    ``counted(cpu_s)`` is told each finished run's CPU seconds."""
    runs: dict[int, tuple] = {}  # the client's run id -> (its server, the server's run id)
    lock = threading.Lock()

    def send(message: dict) -> None:
        with lock:
            try:
                client.send(json.dumps(message).encode())
            except OSError:
                pass

    server = server_of()
    if server is None:
        send({"op": "failed", "error": unavailable})
        client.close()
        return
    send({"op": "ready", "origins": getattr(server, "origins", None),
          "unconfined": getattr(server, "unconfined", None)})
    try:
        while True:
            data, fds, _, _ = socket.recv_fds(client, 65536, 8)
            if not data:
                return
            try:
                message = json.loads(data)
                if message.get("op") == "run" and len(fds) in (5, 6):
                    _forward(message, fds, runs, server_of, counted, send)
                elif message.get("op") == "kill" and message.get("id") in runs:
                    server, run_id = runs[message["id"]]
                    server.kill(run_id)
            except (ValueError, AttributeError, TypeError, warm.ServerError):
                pass
            finally:
                for fd in fds:
                    os.close(fd)
    except OSError:
        pass
    finally:
        for server, run_id in list(runs.values()):
            try:
                server.kill(run_id)
            except warm.ServerError:
                pass
        client.close()


def _forward(message: dict, fds: list, runs: dict, server_of, counted, send) -> None:
    """One ``run``: forwarded to the server of the moment, its ``exited`` sent back."""
    ident = message.get("id")

    def on_exit(returncode, cpu_s, lost):
        runs.pop(ident, None)
        if counted is not None:
            counted(cpu_s or 0.0)
        send({"op": "exited", "id": ident, "returncode": returncode, "cpu_s": cpu_s,
              "lost": lost})

    server = server_of()
    try:
        if server is None:
            raise warm.ServerError("no warm worker server")
        runs[ident] = (server, server.forward(fds, message.get("workdir"), message.get("cache"),
                                              on_exit))
    except warm.ServerError:
        on_exit(None, None, True)
