"""The entry of a fresh worker without the sandbox: ``python -I -c BOOTSTRAP --lock-down JSON
--result-fd N``, started by ``judge.run.supervisor`` under ``--sandbox none`` (a warm server's
children are ``child``'s).

Such a worker runs as the judge's uid, beside the judge and the other runs' workers. Before
anything else it takes the steps a warm worker without isolation takes, none of which needs a
privilege (``child.lock_down``, ``isolate.lock_down``): no capability, not dumpable, no new
privileges, the judge's seccomp filter. Then it runs ``main``. Before anything else, because
each of these is a thread's own and only threads started later inherit them: here the
interpreter has its first thread only, while importing ``main`` imports NumPy, whose BLAS may
start threads at once, and ``main`` starts JAX's backend with its thread pools.

``JSON`` is ``{"seccomp": BASE64 | null, "skip": [STEP, ...] | null}``: the filter, and the
steps the judge found to fail on this machine, left out (null: the judge could not find out,
so none is taken). The judge finds them once per interpreter with ``probe``, which tries every
step in a Python of its own, as the fork server's test child tries them for its children
(``judge.run.unsandboxed``). A step that still fails here ends the worker before the submission
is read, with ``child.SETUP_FAILED`` and the cause on its stderr.
"""

from __future__ import annotations

import json
import os
import sys

from . import child, isolate


def _config(text: str) -> dict:
    config = json.loads(text)
    skip = config.get("skip")
    return {"isolate": False, "seccomp": config.get("seccomp"),
            "skip": list(isolate.STEPS) if skip is None else list(skip)}


def run(argv: list[str] | None = None) -> None:
    """Lock this process down as ``--lock-down`` says, then run the worker's ``main`` on the
    rest of ``argv``. Never returns."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2 or argv[0] != "--lock-down":
        sys.stderr.write("usage: fresh --lock-down JSON --result-fd N  (request on stdin)\n")
        os._exit(2)
    try:
        child.lock_down(_config(argv[1]))
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        child.report(f"judge worker setup failed: {exc}\n")
        os._exit(child.SETUP_FAILED)
    from .main import main

    main(argv[2:])


def probe() -> None:
    """Try every step of the lock-down on this process, the filter read from stdin (the
    ``--lock-down`` JSON); print why each that failed did, by name (``{}``: all held)."""
    config = _config(sys.stdin.read())
    print(json.dumps(isolate.try_lock_down(child.seccomp_filter(config))))
