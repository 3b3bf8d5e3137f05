"""``judge serve``: keep a warm worker server running between judge commands.

Every ``judge`` command starts its own fork server (``judge.run.warm``), which spends a few seconds
importing JAX before the first submission runs. ``judge serve`` starts one and keeps it: other
``judge`` processes of the same user, with the same sandbox mode, Python and compilation cache
(and the same version of the judge), find it through a Unix socket under the cache folder
(``warm.socket_path``) and get their workers forked from it, already warm.

The socket speaks the fork server's own protocol (``judge.worker.forkserver``): this process
answers a connection with ``ready`` and relays (``judge.run.relay``) each ``run`` (with its
descriptors) and ``kill`` to its server, and each ``exited`` back. A run belongs to its
connection: when a client goes away, its workers are killed. The socket lives in a folder only this user can enter; the
workers are exactly as isolated as those of a server the client would have started itself.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

from judge.run import cache, imports, warm
from judge.run import unsandboxed
from judge.run.relay import relay
from judge.run.settings import Settings, of
from judge.errors import JudgeError


def serve(sandbox: Settings | str | None = None, idle_timeout: float = 1800.0,
          use_cache: bool | None = None, announce=print) -> None:
    """Run until interrupted, or until no client has been connected for ``idle_timeout`` seconds
    (0: never). ``sandbox``: the command's ``judge.run.settings.Settings``, or a ``--sandbox``
    value, resolved here. Raises JudgeError if warm workers cannot run here or one already
    serves (``SandboxError`` if the sandbox cannot be used)."""
    settings = of(sandbox).check()
    mode, python = settings.sandbox, settings.python
    imports.check(python)
    cache_dir = cache.for_workers(use_cache)
    path = warm.socket_path(mode, python, cache_dir)
    if warm.connect(mode, python, cache_dir) is not None:
        raise JudgeError(f"a judge warm process already serves this setup ({path})")
    if not warm.enabled():
        raise JudgeError("warm workers are turned off (JUDGE_WARM)")
    server = warm.server_for(mode, python, cache_dir, discover=False)
    if server is None:
        raise JudgeError("the warm worker server could not start (see the warning above)")
    if mode == "none":  # its workers can reach this process as the runs' judges' own
        unsandboxed.before_run(server)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        path.unlink(missing_ok=True)  # left by a server that did not stop cleanly
        listener.bind(str(path))
    except OSError as exc:
        raise JudgeError(f"{path}: cannot listen there: {exc}") from None
    os.chmod(path, 0o600)
    listener.listen(16)
    listener.settimeout(1.0)
    announce(f"judge warm: warm workers ({mode} sandbox, JAX imported) at {path}; "
             f"stops after {idle_timeout:.0f} s without clients" if idle_timeout
             else f"judge warm: warm workers ({mode} sandbox, JAX imported) at {path}")
    clients: list[threading.Thread] = []
    idle_since = time.monotonic()
    try:
        while server.alive:
            try:
                client, _ = listener.accept()
            except socket.timeout:
                clients = [t for t in clients if t.is_alive()]
                if clients:
                    idle_since = time.monotonic()
                elif idle_timeout and time.monotonic() - idle_since > idle_timeout:
                    announce("judge warm: idle, stopping")
                    return
                continue
            client.settimeout(None)
            thread = threading.Thread(target=relay, args=(client, lambda: server), daemon=True)
            thread.start()
            clients.append(thread)
        raise JudgeError(f"the warm worker server stopped: {server.error}")
    finally:
        listener.close()
        try:
            if Path(path).exists():
                path.unlink()
        except OSError:
            pass
        warm.close_all()
