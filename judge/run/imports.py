"""Where a worker imports JAX and NumPy from: the folders the judge itself finds them in.

Judge side only; the worker never imports this module. Workers run ``python -I`` with a rebuilt
environment (``judge.run.sandbox.worker_env``), so on their own they see only what their
interpreter's installation holds: not PYTHONPATH, not the user's site folder, not the current
folder. Where the judge found JAX on PYTHONPATH (a TPU VM image, an HPC ``module load``, Bazel
or Nix), a worker would not find it. So ``roots`` lists the folders of the judge's own
``sys.path`` that hold the modules a worker imports (``MODULES``) and every distribution they
require (their metadata, extras left out), in the judge's order; a worker's bootstrap
(``bootstrap``) puts those that are not on its own path in front of it, and those PYTHONPATH put
in front of the judge's standard library in front of it too, even where its own path holds them
further back (a virtual environment's ``.pth`` naming a site folder with another NumPy first),
and under bubblewrap they are mounted read-only
(``judge.run.sandbox``). Nothing else of the judge's path or environment reaches a worker.

``check`` asks the workers' interpreter once per process where it would import JAX and NumPy
from, and raises ``WorkerImportError`` naming where the judge found them when it would not find
them, or would find others: a clear error once, instead of every case failing to start. A warm
server answers the same question for the runs forked from it, in its ``ready`` message
(``judge.worker.forkserver``): where that answer is the judge's own (``agrees``), such a run
needs no Python started to ask.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from judge.errors import WorkerImportError

#: Top-level modules a worker imports beyond the standard library and the judge's own package.
MODULES = ("jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "scipy")
#: Modules whose origin the workers' interpreter must agree on with the judge (``check``).
CHECKED = ("jax", "jaxlib", "numpy", "ml_dtypes")

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _entry_of(name: str) -> Path | None:
    """The folder of ``sys.path`` this process finds the top-level module ``name`` in, found
    without importing it; None when it has none."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("built-in", "frozen", "namespace"):
        origin = Path(spec.origin)
        return origin.parent.parent if origin.name.startswith("__init__.") else origin.parent
    locations = list(spec.submodule_search_locations or ())
    return Path(locations[0]).parent if locations else None


def _required(names) -> list[str]:
    """The distributions ``names`` require, their requirements too, extras left out."""
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop(0)
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.append(key)
        try:
            requires = importlib.metadata.distribution(name).requires or []
        except (importlib.metadata.PackageNotFoundError, OSError, ValueError):
            continue
        for requirement in requires:
            marker = requirement.partition(";")[2]
            match = _NAME.match(requirement)
            if match and "extra" not in marker:
                todo.append(match.group(1))
    return seen


def _dist_entry(name: str) -> Path | None:
    try:
        location = importlib.metadata.distribution(name).locate_file("")
    except (importlib.metadata.PackageNotFoundError, OSError, ValueError):
        return None
    return Path(str(location))


@functools.cache
def roots() -> tuple[str, ...]:
    """The judge's import roots for its workers: absolute folders of ``sys.path``, in its order,
    holding ``MODULES`` or a distribution they require."""
    found = {Path(os.path.abspath(p)) for p in
             [_entry_of(m) for m in MODULES] + [_dist_entry(d) for d in _required(MODULES)] if p}
    ordered = [Path(os.path.abspath(p)) for p in sys.path if p]
    out: list[str] = []
    for path in ordered + sorted(found - set(ordered)):
        if path in found and str(path) not in out and path.exists():
            out.append(str(path))
    return tuple(out)


@functools.cache
def ahead() -> tuple[str, ...]:
    """The roots the judge's path holds ahead of its standard library (PYTHONPATH's folders)."""
    ordered = [os.path.abspath(p) for p in sys.path if p]
    stdlib = os.path.abspath(os.path.dirname(os.__file__))
    end = ordered.index(stdlib) if stdlib in ordered else 0
    return tuple(r for r in roots() if r in ordered[:end])


def path_code(parent: str) -> str:
    """Python statements that put in front of the interpreter's own path, in the judge's order,
    the import roots it lacks and those the judge holds ahead of its standard library (moved
    there when its own path holds them later, behind another copy of NumPy, say), then the
    folder holding the judge's package ``parent`` before everything."""
    return (f"import sys; sys.path[:0] = [p for p in {list(roots())!r} if p in {list(ahead())!r} "
            f"or p not in sys.path]; sys.path[:] = list(dict.fromkeys(sys.path)); "
            f"sys.path.insert(0, {parent!r}); ")


def bootstrap(parent: str, module: str, function: str) -> str:
    """The ``-c`` program of a worker, warm server or compiling process: the import roots, then
    ``from module import function; function()``."""
    return path_code(parent) + f"from {module} import {function}; {function}()"


_PROBE = ("import importlib.util as u, json, os\n"
          "def where(m):\n"
          "    try:\n"
          "        s = u.find_spec(m)\n"
          "    except (ImportError, ValueError) as e:\n"
          "        return None\n"
          "    return os.path.realpath(s.origin) if s is not None and s.origin else None\n"
          "print(json.dumps({m: where(m) for m in %r}))\n")

_lock = threading.Lock()
_checked: dict[str, str | None] = {}


def origins() -> dict[str, str | None]:
    """Where this process would import each of ``CHECKED`` from (real paths, not importing).
    Looked up once per process: ``agrees`` asks it for every run of a batch."""
    return dict(_origins())


@functools.cache
def _origins() -> dict[str, str | None]:
    out = {}
    for name in CHECKED:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        out[name] = os.path.realpath(spec.origin) if spec is not None and spec.origin else None
    return out


def check(python: str = sys.executable) -> None:
    """Raise ``WorkerImportError`` if a worker run by ``python`` would not import JAX, jaxlib,
    NumPy and ml_dtypes from where the judge does. Asks once per process and interpreter."""
    with _lock:
        if python not in _checked:
            _checked[python] = _problem(python)
        problem = _checked[python]
    if problem is not None:
        raise WorkerImportError(problem)


def agrees(theirs) -> bool:
    """Whether ``theirs`` (a warm server's answer: where it imported each of ``CHECKED`` from)
    names the very files the judge finds, so that a run forked from it needs no ``check``. Any
    other answer (none, a module missing on either side, another file) proves nothing: the run
    asks ``check``, which says what is wrong, if anything."""
    if not isinstance(theirs, dict):
        return False
    judge = origins()
    return all(judge[name] is not None and theirs.get(name) == judge[name] for name in CHECKED)


def check_soon(python: str = sys.executable, ask: bool = True) -> None:
    """Start ``check``'s question in the background, so that the command's first run finds the
    answer ready rather than waiting for the workers' Python to start; and the worker's own
    modules' bytecode (``compile_worker``). Without ``ask``, only the bytecode: for a command
    whose runs are forked from a warm server, which answers the question itself (``agrees``),
    so that no Python is started to ask it (a run that does not get one asks ``check``)."""
    def soon():
        if ask:
            try:
                check(python)
            except WorkerImportError:
                pass  # raised again, once per run, by the run that calls check
        compile_worker()

    with _lock:
        if python in _checked:
            return
    threading.Thread(target=soon, daemon=True).start()


#: The judge's modules a worker imports: its package's ``__init__`` and ``worker`` folder.
WORKER_PACKAGE = Path(__file__).resolve().parents[1] / "worker"


def compile_worker() -> None:
    """Write the bytecode of the worker's modules (``WORKER_PACKAGE``) where it is missing or
    stale, unless this Python writes none (``-B``, $PYTHONDONTWRITEBYTECODE). Workers and warm
    servers run ``-B`` on a read-only copy of that folder, and the judge process imports few of
    those modules itself, so in a checkout they were compiled from source by every server and
    fresh worker (about 0.03 s of a warm server's start); an installed package has its bytecode
    already and nothing is written. Quiet: a folder this user cannot write is left as it is."""
    if sys.dont_write_bytecode:
        return
    try:
        import compileall

        compileall.compile_dir(str(WORKER_PACKAGE), maxlevels=0, quiet=2)
    except Exception:  # noqa: BLE001 - bytecode is an optimisation: the sources still run
        pass


def _problem(python: str) -> str | None:
    judge = origins()
    folders: dict[str, list[str]] = {}
    for name, origin in judge.items():
        if origin:
            folders.setdefault(str(_entry_of(name)), []).append(name)
    found = "; ".join(f"{', '.join(names)} in {folder}" for folder, names in folders.items())
    missing_here = [m for m, p in judge.items() if p is None]
    if missing_here:
        return (f"{', '.join(missing_here)} cannot be imported by the judge's own Python "
                f"({sys.executable}); install JAX (see docs/install.md)")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE": "1"}
    code = path_code("/nonexistent") + _PROBE % (CHECKED,)
    try:
        done = subprocess.run([python, "-I", "-B", "-c", code], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60, env=env, cwd="/")
        theirs = json.loads(done.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        return f"the workers' Python ({python}) could not be asked where it finds JAX: {exc}"
    differ = [m for m in CHECKED if theirs.get(m) != judge[m]]
    if not differ:
        return None
    told = ", ".join(f"{m} " + (f"from {theirs.get(m)}" if theirs.get(m) else "not found")
                     for m in differ)
    return (f"the workers ({python} -I, which ignores PYTHONPATH and the user's site folder, "
            f"given the folders the judge imports JAX from) would not import the JAX the judge "
            f"found ({found}): {told}")
