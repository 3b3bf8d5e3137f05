"""The warm worker server's command line and environment (``judge.run.warm`` starts it).

Run by the judge's own interpreter, the server starts with ``-S`` and its program adds the site
folders itself (``site_code``): what the ``site`` module does at start beyond that (every
``.pth`` file of the installation read, and the modules they import run) is on the way to the
server's first import, where a lone grade waits for it (0.03 s of CPU on a machine whose
installation imported ``certifi`` that way), and gives a worker nothing it uses. The folders
JAX and NumPy are imported from are added either way (``judge.run.imports``), so a worker
forked from the server imports what a fresh worker would.

``JUDGE_WARM_AHEAD=off`` (read by the process that starts the server) has the server fork each
worker when its run comes, rather than keep workers forked ahead of their runs with JAX's
backend made (``judge.worker.ahead``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from judge.run import cache, imports
from judge.run import sandbox as sandboxing


def command(mode: str, python: str, cache_dir: Path | None,
            control_fd: int) -> tuple[list[str], str | None, dict]:
    """(argv, working directory, environment) of a server for ``mode`` (``bwrap``: inside
    bubblewrap, with user namespaces allowed and the compilation cache ``cache_dir`` mounted
    read-only) that reads its control channel from ``control_fd``."""
    args = [*server_args(mode, python), "--control-fd", str(control_fd)]
    if mode == "bwrap":
        argv = sandboxing.bwrap_argv(
            python, args, seccomp_fd=None, allow_userns=True,
            read_only=[(str(cache_dir), sandboxing.CACHE_MOUNT)] if cache_dir else [])
        cwd = "/"
    else:
        argv, cwd = [python, *args], None
    # each forked worker is told its own cache folder; the settings are common
    env = sandboxing.worker_env(sandboxing.WORKDIR if mode == "bwrap" else tempfile.gettempdir(),
                                None, cache.JAX_SETTINGS if cache_dir else None)
    return argv, cwd, env


def ahead() -> bool:
    """Whether the server keeps workers forked ahead ($JUDGE_WARM_AHEAD, default on)."""
    return os.environ.get("JUDGE_WARM_AHEAD", "on").lower() not in ("off", "0", "no", "false")


def server_args(mode: str, python: str) -> list[str]:
    """The server's interpreter options and program: ``-S`` and ``site_code`` when ``python`` is
    the judge's own interpreter (another one's site folders are its own ``site`` module's to
    find)."""
    program = imports.bootstrap(sandboxing.LIBDIR if mode == "bwrap"
                                else str(sandboxing.PACKAGE_PARENT), "judge.worker.forkserver", "main")
    if os.path.realpath(python) != os.path.realpath(sys.executable):
        return ["-I", "-B", "-c", program]
    return ["-I", "-S", "-B", "-c", site_code() + program]


def site_code() -> str:
    """Python statements that do for a ``-S`` interpreter what ``site`` would have done that a
    program can tell: its site folders after the standard library, ``sys.prefix`` (a virtual
    environment's), and the ``exit``, ``quit``, ``help``, ``copyright``, ``credits`` and
    ``license`` built-ins. No ``.pth`` file is read (the import roots come next)."""
    import site

    folders = [os.path.abspath(p) for p in site.getsitepackages() if os.path.isdir(p)]
    return (f"import sys, site; sys.path += [p for p in {folders!r} if p not in sys.path]; "
            f"sys.prefix, sys.exec_prefix = {sys.prefix!r}, {sys.exec_prefix!r}; "
            f"site.setquit(); site.setcopyright(); site.sethelper(); ")
