"""The judge's compiling process: it compiles, once, the operations workers described as having
missed the compilation cache (``shared_ops``), into that cache, for every later worker. It is
started by ``judge.run.shared_compile`` and never loads a submission.

Each operation is rebuilt from its description alone (``shared_ops.Plain``: JAX's own primitives
bound again), lowered from its input shapes and compiled as JAX's op-by-op path compiles it
(``dispatch.xla_primitive_callable``, a jitted call's own path for ``jit``); nothing runs. The
executable of an operation a worker binds through that path is also stored in the form a
worker loads without tracing it again (``stored_ops``). JAX
writes each entry into a staging folder, from which it is renamed into the cache whole, so a
worker never reads a half-written entry; the key is JAX's own, computed from the program, so an
entry serves exactly the operation it was compiled from.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import threading
import time

from .shared_ops import Plain, check_shape, dtype_of


def compile_one(op: dict, primitives: dict, plain: Plain, callable_of, writer=None) -> None:
    """Compile ``op`` into the cache JAX is pointed at, from shapes, as binding it on values
    would; with ``writer`` (``stored_ops.Writer``), store the executable for workers to load
    as it is too. Raises on anything wrong."""
    jax = plain.jax
    primitive = primitives.get(op["p"])
    if primitive is None:
        raise ValueError("not one of JAX's primitives")
    params = plain.params(op["params"].items(), primitives)
    inputs = [(dtype_of(dtype), check_shape(shape)) for dtype, shape in op["in"]]
    if primitive.name in ("jit", "pjit"):
        plain.jaxapi.compile_jit(params["jaxpr"], params, inputs)
        return
    shapes = [jax.ShapeDtypeStruct(shape, dtype) for dtype, shape in inputs]
    lower = lambda: callable_of(primitive, **params).lower(*shapes)  # noqa: E731
    if writer is None:
        lower().compile()
    else:
        writer.compile(primitive, params, inputs, lower)


def _publish(staging: str, cache: str) -> None:
    """Move each entry JAX wrote into ``staging`` into ``cache``, whole (a rename)."""
    for name in os.listdir(staging):
        source = os.path.join(staging, name)
        if os.path.isfile(source):
            os.replace(source, os.path.join(cache, name))


def _idle_priority() -> None:
    """Run only on what the workers leave idle: the lowest nice value and, where the kernel
    has it, the idle scheduling class; the session's autogroup (each worker's session is
    one, weighed equally) at the lowest weight too."""
    def autogroup():
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")

    for attempt in (lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)),
                    lambda: os.nice(19), autogroup):
        try:
            attempt()
        except (OSError, AttributeError, ValueError):
            pass


#: Seconds the compiling process goes on once its command has closed its input: it compiles
#: what the command left pending, at the lowest priority (an author's next check finds it).
LINGER_S = 120.0
#: Files in the cache folder (``judge.run.shared_compile``): the keys of the operations done
#: (compiled, or refused), a line each; the operations left to compile, a JSON line each; the
#: lock that lets one process at a time go on with those.
INDEX, PENDING, LOCK = ".shared-ops", ".shared-ops-pending", ".shared-ops-lock"
#: Bytes of the pending file read, at most.
MAX_PENDING_BYTES = 8 << 20


def read_done(cache) -> set:
    """The keys in the cache folder's index (``op_key``'s, 40 hex digits)."""
    try:
        with open(os.path.join(cache, INDEX), encoding="ascii", errors="replace") as f:
            return {k for k in f.read().split() if len(k) == 40 and all(c in "0123456789abcdef" for c in k)}
    except OSError:
        return set()


def read_pending(cache) -> list:
    """The pending file's entries (``{"id": KEY, "op": ...}``, JSON as written), in order; the
    unreadable lines are left out."""
    found = []
    try:
        with open(os.path.join(cache, PENDING), "rb") as f:
            lines = f.read(MAX_PENDING_BYTES).split(b"\n")
    except OSError:
        return found
    for line in lines:
        try:
            item = json.loads(line)
            if isinstance(item, dict) and isinstance(item.get("id"), str) and "op" in item:
                found.append(item)
        except ValueError:
            continue
    return found


def _pending(cache: str, done: set) -> list:
    """The pending file's operations not done yet, as ``(key, op)``."""
    return [(item["id"][:64], item["op"]) for item in read_pending(cache) if item["id"] not in done]


#: Seconds one operation may take to compile before the process ends itself.
OP_LIMIT_S = 60.0


def _watch(started: list, staging: str) -> None:
    """End the process when one operation has been compiling for more than ``OP_LIMIT_S``."""
    while True:
        time.sleep(1.0)
        began = started[0]
        if began is not None and time.monotonic() - began > OP_LIMIT_S:
            _stop_after(0, staging)


def _stop_after(seconds: float, staging: str) -> None:
    """End the process ``seconds`` from now, whatever it is doing (its folders removed)."""
    import shutil

    time.sleep(seconds)
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(os.environ.get("HOME", staging), ignore_errors=True)
    os._exit(0)


def compile_main() -> None:
    """Read ``{"id": KEY, "op": ...}`` lines on stdin, compile each and add its KEY to the
    cache's index (a refused one too); answer ``{"id": KEY, "ok": true}`` or ``{"id": KEY,
    "ok": false, "why": ...}`` on stdout while the judge reads them. At the end of stdin, go on
    with the pending file for at most ``LINGER_S`` seconds. One process per cache folder runs
    at a time (a lock): another one ends at once, its command's operations left to the pending
    file. JAX writes into $JAX_COMPILATION_CACHE_DIR (the staging folder, removed at the end,
    with $HOME); $JUDGE_SHARED_CACHE is the cache."""
    import shutil
    import warnings

    if os.environ.get("JUDGE_COMPILE_IDLE", "1") != "0":
        _idle_priority()
    warnings.filterwarnings("ignore")
    cache, staging = os.environ["JUDGE_SHARED_CACHE"], os.environ["JAX_COMPILATION_CACHE_DIR"]
    try:
        # One compiling process per cache folder at a time: another one already at it leaves
        # this command's operations to the pending file, which that one goes on with.
        lock = os.open(os.path.join(cache, LOCK), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return
        import jax

        from . import jaxapi

        primitives, callable_of = jaxapi.primitives(), jaxapi.primitive_callable()
        plain = Plain(jax)
        try:
            from .stored_ops import Writer

            writer = Writer(jax, staging)
        except Exception:  # noqa: BLE001 - a JAX it cannot key operations for: cache entries only
            writer = None
        answering, started = [True], [None]  # when the operation being compiled began
        threading.Thread(target=_watch, args=(started, staging), daemon=True).start()

        def one(ident: str, op) -> None:
            # done before it is tried: one that hangs or kills this process is never sent again
            with open(os.path.join(cache, INDEX), "a", encoding="ascii") as f:
                f.write(f"{ident}\n")  # a line per write: appends of processes interleave whole
            started[0] = time.monotonic()
            try:
                compile_one(op, primitives, plain, callable_of, writer)
                _publish(staging, cache)
                answer = {"id": ident, "ok": True}
            except Exception as exc:  # noqa: BLE001 - a description this JAX cannot compile
                answer = {"id": ident, "ok": False, "why": f"{type(exc).__name__}: {exc}"[:200]}
            started[0] = None
            if answering[0]:
                try:
                    sys.stdout.write(json.dumps(answer) + "\n")
                    sys.stdout.flush()
                except (OSError, ValueError):  # the judge has gone
                    answering[0] = False

        for line in sys.stdin:
            try:
                item = json.loads(line)
                ident, op = str(item["id"])[:64], item["op"]
            except (ValueError, KeyError, TypeError):
                continue
            one(ident, op)
        # then what this and other commands left pending, for at most LINGER_S
        threading.Thread(target=_stop_after, args=(LINGER_S, staging), daemon=True).start()
        for ident, op in _pending(cache, read_done(cache)):
            one(ident, op)
        if not _pending(cache, read_done(cache)):  # every one done: nothing is pending any more
            try:
                os.unlink(os.path.join(cache, PENDING))
            except FileNotFoundError:
                pass
    except OSError:  # the cache folder went away
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(os.environ.get("HOME", staging), ignore_errors=True)
