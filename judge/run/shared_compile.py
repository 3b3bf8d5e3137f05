"""Compiling once what every submission's worker would compile again (the worker side is
``judge.worker.shared_ops``, ``judge.worker.op_compiler``).

Workers get the judge's compilation cache read-only (``judge.run.cache``): a submission can use
it but never write to it. So what one worker compiled, each later worker compiled again, and in
``judge check`` most of a submission's time went there. A worker asked to (``report_ops`` in
its request) lists, in its ``done`` message, the operations that missed the cache. The judge
checks that list's form (``check_ops``: a malformed one is dropped, never held against the
submission; nothing in it decides a verdict) and hands the operations it has not seen to a
compiling process of its own (``SharedCompiles``). That process never loads a submission; it
compiles each operation from its description alone (a primitive of JAX's own, plain
parameters, input shapes), into a staging folder, and moves each entry into the cache whole.
The keys of the operations compiled are kept in ``.shared-ops`` in the cache folder, so no
later command sends them again. Used by ``judge check`` and ``judge mutants``, whose
submissions are an author's own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from judge.run import cache, imports, sandbox as sandboxing
from judge.worker import op_compiler
from judge.worker.shared_ops import (DTYPES, MAX_DEPTH, MAX_INPUTS, MAX_NODES, MAX_OPS,
                                     MAX_PARAMS, MAX_RANK)

#: Files in the cache folder: the keys of the operations done (written by the compiling
#: process), and the operations offered but not done yet, which the compiling process goes on
#: with once its command has ended and the next command's process starts with.
INDEX, PENDING = op_compiler.INDEX, op_compiler.PENDING
#: Operations one command sends to be compiled, at most.
MAX_PER_COMMAND = 4000

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}\Z")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")


class _Bad(Exception):
    pass


#: The keys a dict of a description may have (``shared_ops``: parameter values and programs).
_FORMS = frozenset(frozenset(k) for k in (
    {"f"}, {"t"}, {"dtype"}, {"enum", "name"}, {"nt", "f"}, {"special"}, {"cj"}, {"oj"}, {"lit"},
    {"in", "consts", "eqns", "out", "args", "results"}))
#: Characters of one string (a constant's data in base64 is the longest).
_MAX_TEXT = 1 << 20


def _walk(raw, depth: int, budget: list) -> None:
    """Raise _Bad unless ``raw`` is JSON of the kinds a description uses, within its bounds."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 4 * MAX_DEPTH:
        raise _Bad
    kind = type(raw)
    if raw is None or kind is bool:
        return
    if kind is int:
        if abs(raw) >= 2 ** 62:
            raise _Bad
    elif kind is str:
        if len(raw) > _MAX_TEXT:
            raise _Bad
    elif kind is list:
        for item in raw:
            _walk(item, depth + 1, budget)
    elif kind is dict:
        if frozenset(raw) not in _FORMS:
            raise _Bad
        for item in raw.values():
            _walk(item, depth + 1, budget)
    else:
        raise _Bad


def _op(raw) -> dict:
    if type(raw) is not dict or set(raw) != {"p", "params", "in"}:
        raise _Bad
    name, params, inputs = raw["p"], raw["params"], raw["in"]
    if type(name) is not str or not _NAME.match(name):
        raise _Bad
    if type(params) is not dict or len(params) > MAX_PARAMS:
        raise _Bad
    budget = [MAX_NODES]
    for key, value in params.items():
        if not _KEY.match(key):
            raise _Bad
        _walk(value, 1, budget)
    if type(inputs) is not list or len(inputs) > MAX_INPUTS:
        raise _Bad
    for item in inputs:
        if type(item) is not list or len(item) != 2 or item[0] not in DTYPES:
            raise _Bad
        shape = item[1]
        if type(shape) is not list or len(shape) > MAX_RANK or not all(
                type(d) is int and 0 <= d < 2 ** 31 for d in shape):
            raise _Bad
    return {"p": name, "params": params, "in": inputs}


def check_ops(raw) -> tuple[dict, ...]:
    """The well-formed operations of a worker's ``ops`` list (at most ``MAX_OPS``); the rest,
    and a list that is not one, are dropped."""
    if type(raw) is not list:
        return ()
    kept = []
    for item in raw[:MAX_OPS]:
        try:
            kept.append(_op(item))
        except _Bad:
            continue
    return tuple(kept)


def op_key(op: dict) -> str:
    """An operation's key in the index: a hash of its description."""
    return hashlib.sha256(json.dumps(op, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:40]


def _pending_ops(cache_dir: Path, skip: set) -> list[tuple[str, dict]]:
    """The well-formed operations of the pending file whose keys are not in ``skip``, as
    ``(key, op)``, each once."""
    found = []
    for item in op_compiler.read_pending(cache_dir):
        ops = check_ops([item["op"]])
        if ops and (key := op_key(ops[0])) not in skip:
            skip.add(key)
            found.append((key, ops[0]))
    return found


class SharedCompiles:
    """Operations offered by workers (``offer``), compiled once each into the cache folder
    ``cache_dir`` by a process of the judge's own at the lowest CPU priority (unless not
    ``idle``), so that it takes only what the workers leave idle; one such process per cache
    folder runs at a time (while another one runs, this command's operations wait in the
    pending file). ``close`` keeps what was not compiled yet in the pending file, which the
    process goes on with and the next command's process starts with (the process marks an
    operation done before it tries it, so one that crashed it is not sent again). Counts:
    ``offered`` (new operations queued), ``compiled``, ``failed`` (answers read while the
    command ran)."""

    def __init__(self, cache_dir: Path, python: str = sys.executable, idle: bool = True):
        self.cache_dir, self.python, self.idle = Path(cache_dir), python, idle
        self.offered = self.compiled = self.failed = 0
        self._lock = threading.Lock()
        self._known: set[str] | None = None
        self._pending: dict[str, dict] = {}  # key -> op, in the order queued
        self._queue: queue.Queue = queue.Queue()
        self._proc: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self._closed = False

    def prime(self) -> None:
        """Start on the operations an earlier command left pending, if there are any."""
        self.offer(())

    def offer(self, ops) -> None:
        """Queue the operations not compiled yet (by this command or, per the index, before)."""
        fresh = []
        with self._lock:
            if self._closed or not self.cache_dir.is_dir():
                return
            if self._known is None:
                fresh += self._load()
            for op in ops:
                key = op_key(op)
                if key in self._known or self.offered >= MAX_PER_COMMAND:
                    continue
                self._known.add(key)
                self._pending[key] = op
                self.offered += 1
                fresh.append((key, op))
            if fresh and self._proc is None and not self._start():
                self._closed = True
                return
        for item in fresh:
            self._queue.put(item)

    def _load(self) -> list:
        """Read the index and the pending file (under the lock); the pending operations."""
        self._known = op_compiler.read_done(self.cache_dir)
        loaded = _pending_ops(self.cache_dir, self._known)
        self._pending.update(loaded)
        return loaded

    def _start(self) -> bool:
        for old in self.cache_dir.glob(".staging-*"):  # of a process killed an hour ago or more
            with contextlib.suppress(OSError):
                if time.time() - old.stat().st_mtime > 3600:
                    shutil.rmtree(old, ignore_errors=True)
        try:
            staging = tempfile.mkdtemp(prefix=".staging-", dir=self.cache_dir)
            home = tempfile.mkdtemp(prefix="judge-compile-")
            env = {**sandboxing.worker_env(home, staging, cache.JAX_SETTINGS),
                   "JUDGE_SHARED_CACHE": str(self.cache_dir), "JUDGE_COMPILE_IDLE": "1" if self.idle else "0"}
            parent = str(Path(__file__).resolve().parents[2])
            boot = imports.bootstrap(parent, "judge.worker.op_compiler", "compile_main")
            self._proc = subprocess.Popen(
                [self.python, "-I", "-B", "-c", boot], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=home, env=env,
                start_new_session=True)
        except OSError:
            return False
        threading.Thread(target=self._feed, args=(self._proc,), daemon=True).start()
        self._reader = threading.Thread(target=self._read, args=(self._proc,), daemon=True)
        self._reader.start()
        return True

    def _feed(self, proc) -> None:
        try:
            while (item := self._queue.get()) is not None:
                key, op = item
                proc.stdin.write((json.dumps({"id": key, "op": op}) + "\n").encode())
                proc.stdin.flush()
            proc.stdin.close()
        except (OSError, ValueError):
            pass

    def _read(self, proc) -> None:
        for line in proc.stdout:
            try:
                answer = json.loads(line)
                key, ok = answer["id"], answer["ok"] is True
            except (ValueError, KeyError, TypeError):
                continue
            with self._lock:
                if self._pending.pop(key, None) is not None:
                    self.compiled += ok
                    self.failed += not ok
        with self._lock:  # the process ended (another one holds the cache, or it crashed):
            self._closed = True  # what is left waits in the pending file

    def close(self, wait_s: float = 0.0) -> None:
        """Keep what is not compiled yet in the pending file, and let the process go on with it
        (at the lowest priority, for at most ``op_compiler.LINGER_S`` seconds once its input has
        ended; it removes its folders itself). ``wait_s``: wait that long for it to end."""
        with self._lock:
            self._closed = True
            left = list(self._pending.values())
            proc = self._proc
        if self._known is not None:
            self._keep(left)  # before the process reads to the end of its input
        self._queue.put(None)
        if proc is not None and wait_s > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=wait_s)
                self._reader.join(timeout=5)
                with self._lock:
                    left = list(self._pending.values())
                self._keep(left)

    def _keep(self, left: list) -> None:
        """Write the pending file whole (a rename): what this command left, and what other
        commands left that is not done yet; or remove it when nothing is left."""
        path = self.cache_dir / PENDING
        ours = {op_key(op) for op in left}
        left = left + [op for _, op in _pending_ops(self.cache_dir, ours | op_compiler.read_done(self.cache_dir))]
        try:
            if not left:
                path.unlink(missing_ok=True)
                return
            fd, temp = tempfile.mkstemp(prefix=".pending-", dir=self.cache_dir)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                for op in left:
                    f.write(json.dumps({"id": op_key(op), "op": op}, separators=(",", ":")) + "\n")
            os.replace(temp, path)
        except OSError:
            pass


def enabled() -> bool:
    """Whether $JUDGE_SHARE_COMPILES leaves sharing on (the default)."""
    return os.environ.get("JUDGE_SHARE_COMPILES", "on").strip().lower() not in ("off", "0", "no", "false")


def start() -> SharedCompiles | None:
    """A ``SharedCompiles`` for the judge's cache folder, already at work on what an earlier
    command left pending; None when the cache is off ($JUDGE_CACHE=off) or sharing is
    ($JUDGE_SHARE_COMPILES=off). The caller closes it."""
    if not cache.enabled() or not enabled():
        return None
    shared = SharedCompiles(cache.directory())
    shared.prime()
    return shared
