"""The ``judge`` program's process (the console script, ``python -m judge``): what it starts
before the command line is parsed, and how it ends. ``judge.cli`` parses and dispatches;
library callers and tests call ``cli.main`` and get neither.

``run``:

- For ``judge grade`` and a local ``judge batch``, the warm server is started first thing, from
  this (the main) thread (``warm.prestart_early``: bubblewrap's, or the unsandboxed one where
  bwrap is not installed and ``--sandbox auto`` or ``none`` is asked for), before the parser and
  the rest of the judge are imported, so that it imports JAX meanwhile: the server is most of a
  lone grade's wait, and what every lane of a batch waits for at its start. ``--sandbox`` is
  read from the raw arguments; a wrong reading only starts a server no run asks for (it ends
  with this process), and the command starts the one it needs itself, as it always has.
- Those two commands end once their output is flushed and the exit handlers have run (warm
  servers killed, not waited for: the sandbox and the server's children end with them; task
  groups and temporary folders removed), without tearing the interpreter down module by module,
  which took a grade's process about 0.05 s of CPU after its report was written. By then every
  thread that grades has been joined.
"""

from __future__ import annotations

import sys

#: The commands that start a warm server before parsing and end without the interpreter's teardown.
GRADING = ("grade", "batch")
#: ``--sandbox``'s values (``judge.run.sandbox.MODES``; not imported: this runs before anything).
SANDBOX_MODES = ("auto", "bwrap", "none")


def run() -> None:
    argv = sys.argv[1:]
    grading = bool(argv) and argv[0] in GRADING
    if grading:
        start_server_early(argv)
    from judge.cli import main

    code = main(argv)
    if grading:
        end(code)
    raise SystemExit(code)


def start_server_early(argv: list[str]) -> None:
    """Start the warm server for ``judge grade``/``judge batch`` ``argv``, unless it asks for
    help or hands the class to the service's graders (``--queue``)."""
    if any(a in ("-h", "--help") or a.startswith("--q") for a in argv):
        return
    option = None
    for i, arg in enumerate(argv):
        if arg == "--sandbox" and i + 1 < len(argv):
            option = argv[i + 1]
        elif arg.startswith("--sandbox="):
            option = arg.partition("=")[2]
    if option is not None and option not in SANDBOX_MODES:
        return  # the parser says what is wrong with it
    from judge.run import warm

    # a lone grade makes one run: a worker forked ahead for a next one would only take CPU from it
    warm.prestart_early(option, ahead=argv[0] != "grade")


def end(code: int) -> None:
    """End the process with ``code`` once stdout and stderr are flushed and the ``atexit``
    handlers have run; where a stream cannot be flushed (a closed pipe), exit as usual."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    import atexit
    import os

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
