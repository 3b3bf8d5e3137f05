"""The judge-owned XLA compilation cache, shared read-only by workers.

Most of a fresh worker's time goes into compiling small XLA computations, once per operation and
input shape. JAX can keep compiled executables on disk (``jax_compilation_cache_dir``). The judge
keeps one such cache per JAX version and fills it only from trusted code: the problem's
reference solution, run over the problem's cases (``judge.grade.grading.warm_cache``). Workers that run submissions get the
cache read-only (a read-only bind mount under bubblewrap, otherwise ``snapshot``: a copy this
process keeps in step with the cache, its files and folder read-only), so a submission can use
it but not change the judge's cache, and its JAX writes nothing for the next one.

Location: ``$JUDGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/jax-judge``, else ``~/.cache/jax-judge``.
``JUDGE_CACHE=off`` (or ``--no-cache``) turns it off.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import atexit
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from judge.errors import JudgeError
from judge.memo import ByIdentity

#: Environment of a worker that uses the cache; the directory is added by the runner.
JAX_SETTINGS = {
    "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "-1",
    # By default JAX also points XLA's own caches at a folder inside the cache directory, and
    # that path becomes part of every entry's key: a copy or a mount at another path would
    # then never hit. Workers see the cache at other paths than the warm-up does.
    "JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES": "none",
}
#: Bumped whenever the settings above change what the entries' keys are, or a folder of the
#: last layout would lack what a worker reads (3: operations stored compiled, ``stored_ops``,
#: which only a fresh compilation yields).
LAYOUT = 3


def enabled(flag: bool | None = None) -> bool:
    if flag is not None:
        return flag
    return os.environ.get("JUDGE_CACHE", "on").lower() not in ("off", "0", "no", "false")


@functools.cache
def jax_version() -> str:
    """The installed JAX version, read from its metadata (the judge process never imports JAX)
    once per process: reading it lists every folder of the path, and a batch asks per
    submission, from every lane."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jax") + "-" + version("jaxlib")
    except PackageNotFoundError:
        return "unknown"


def root() -> Path:
    if os.environ.get("JUDGE_CACHE_DIR"):
        return Path(os.environ["JUDGE_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "jax-judge"


def make(folder: Path) -> None:
    """Create a cache folder; JudgeError naming it and the settings when that fails."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JudgeError(f"{folder}: cannot create the judge's compilation cache folder "
                         f"({exc.strerror or exc}); set JUDGE_CACHE_DIR to a writable folder, "
                         f"or JUDGE_CACHE=off to grade without the cache") from None


def directory() -> Path:
    """The XLA cache folder for the installed JAX."""
    return root() / f"xla{LAYOUT}-{jax_version()}"


def available(flag: bool | None = None) -> Path | None:
    """The cache folder to give a worker, or None when the cache is off or still empty."""
    return directory() if enabled(flag) and directory().is_dir() else None


def for_workers(flag: bool | None = None) -> Path | None:
    """The cache folder workers of this process will be given (created if missing), or None
    when the cache is off; what a warm worker server is set up with before anything is warm."""
    if not enabled(flag):
        return None
    make(directory())
    return directory()


def _marker(problem) -> Path:
    """The file that says the cache is warm for this version of the problem: of its reference and
    of its spec without the cases' expected outputs, which compile nothing (an author editing one
    does not start the warm-up again)."""
    digest = hashlib.sha256()
    raw = getattr(problem, "raw", None)
    if raw:
        digest.update(_SPEC_TEXT.get((raw,), lambda: json.dumps(
            _without_expected(raw), sort_keys=True, default=repr).encode()))
    else:
        digest.update(problem.path.read_bytes() if problem.path.is_file() else b"")
    digest.update(b"\0" + (problem.reference.read_bytes() if problem.reference.is_file() else b""))
    return directory() / f".warm-{problem.id}-{digest.hexdigest()[:16]}"


#: a loaded spec (its ``raw`` mapping) -> its text without the expected outputs, made once
_SPEC_TEXT = ByIdentity(64)


def _without_expected(raw: dict) -> dict:
    return {key: [{k: v for k, v in case.items() if k != "expected"} if isinstance(case, dict)
                  else case for case in value]
            if key in ("examples", "hidden") and isinstance(value, list) else value
            for key, value in raw.items()}


def is_warm(problem) -> bool:
    return _marker(problem).exists()


_lock = threading.Lock()


@contextlib.contextmanager
def filling(problem):
    """Hold the warm-up lock (one warm-up at a time, across threads and processes) and yield
    whether the cache still needs filling for ``problem``. The caller fills it (the judge's
    grading runs the trusted reference) and then calls ``mark_warm``."""
    folder = directory()
    make(folder)
    with _lock, open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield not is_warm(problem)


def mark_warm(problem) -> None:
    _marker(problem).touch()


_snapshot_lock = threading.Lock()
_snapshots: dict[str, tuple[Path, set[str] | None]] = {}
_scanned: dict[str, int] = {}  # folder -> its modification time when last read whole
SETTLED_NS = 2_000_000_000  # a folder time this old cannot hide an entry added since


def snapshot(folder: Path) -> Path:
    """A copy of the cache ``folder`` for workers without the sandbox's read-only mount, made
    once per process and brought up to date (the entries added since) on every call: its files
    and the folder itself are read-only, so a worker's JAX writes nothing there. One copy for
    every run of the process, rather than one per run: copying the cache for each submission
    was most of what the judge process did per submission where file operations are slow
    (gVisor), and it made ``judge batch`` wait on this one process. The folder is read again
    only when its modification time moved since it was last read (a warm batch adds nothing,
    so its runs cost one ``stat``, not a listing of every entry); a time within two seconds of
    the clock is never trusted, as an entry added in the same tick of the file system's clock
    would not move it. A missed entry only costs a worker a compile."""
    with _snapshot_lock:
        if str(folder) not in _snapshots:
            copy = Path(tempfile.mkdtemp(prefix="judge-xla-cache-"))
            atexit.register(_remove, copy)
            _snapshots[str(folder)] = (copy, set())
        copy, copied = _snapshots[str(folder)]
        if copied is None:  # another process's copy (``share_snapshot``): used as it is
            return copy
        try:
            stamp = os.stat(folder).st_mtime_ns
        except OSError:
            stamp = None
        if stamp is not None and _scanned.get(str(folder)) == stamp:
            return copy
        try:
            names = {e.name for e in os.scandir(folder) if not e.name.startswith(".") and e.is_file()}
        except OSError:
            names = set()
        fresh = names - copied
        if fresh:
            copy.chmod(0o700)
            try:
                for name in sorted(fresh):
                    temp = copy / f".{name}.part"
                    try:
                        shutil.copyfile(folder / name, temp)
                    except OSError:  # removed meanwhile: copied next time, if it comes back
                        temp.unlink(missing_ok=True)
                        continue
                    temp.chmod(0o444)
                    os.replace(temp, copy / name)
                    copied.add(name)
            finally:
                copy.chmod(0o555)
        if stamp is not None and time.time_ns() - stamp > SETTLED_NS and names <= copied:
            _scanned[str(folder)] = stamp
        else:
            _scanned.pop(str(folder), None)
        return copy


def share_snapshot(folder: Path, copy: Path) -> None:
    """Give this process's workers ``copy``, the snapshot of the cache ``folder`` that another
    judge process made (``snapshot``: a batch's, for its grading processes), instead of a copy
    of its own: used as it is, never brought up to date here, never removed here (its maker
    removes it, once this process has ended). Entries added to the cache meanwhile are only
    compiled again by the workers that miss them."""
    with _snapshot_lock:
        _snapshots[str(folder)] = (Path(copy), None)


def _remove(copy: Path) -> None:
    with _snapshot_lock:  # after a copy still being made in the background (``warm.prestart``)
        try:
            copy.chmod(0o700)
        except OSError:
            return
        shutil.rmtree(copy, ignore_errors=True)
