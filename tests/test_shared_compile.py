"""Compiling once what every submission's worker would compile again (``judge.run.shared_compile``,
``judge.worker.shared_ops``): the descriptions a worker sends compile, in the judge's own process,
to the very cache entries the next worker looks up, and nothing a worker sends can make that
process run anything, write anything else, or change a verdict."""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from judge.grade import grading
from judge.problem import spec
from judge.run import boundary, cache, shared_compile
from judge.run.shared_compile import SharedCompiles, check_ops, op_key
from judge.worker import protocol, stored_ops

from tests.helpers import ROOT

#: Evaluates honest programs of many kinds with the worker's evaluator and its OpLog, in a
#: process of its own pointed at the cache folder argv[1]; prints the misses, the operations
#: described, and the outputs' bytes.
EVALUATE = textwrap.dedent("""
    import hashlib, json, sys
    import numpy as np
    import jax, jax.numpy as jnp
    for key, value in {"jax_compilation_cache_dir": sys.argv[1],
                       "jax_persistent_cache_min_compile_time_secs": 0,
                       "jax_persistent_cache_min_entry_size_bytes": -1,
                       "jax_persistent_cache_enable_xla_caches": "none"}.items():
        jax.config.update(key, value)
    from judge.worker.evaluate import Evaluator
    from judge.worker.shared_ops import OpLog

    @jax.jit
    def helper(x, w):
        return jnp.tanh(x @ w).sum(axis=0) * 2.0 + jnp.arange(4.0, dtype=jnp.float32)

    def program(x, i):
        return (jnp.exp(x) + jnp.log1p(jnp.abs(x)), jnp.cumsum(x, axis=0), jnp.sort(x, axis=1),
                x[i] + jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1).sum(),
                jnp.max(x, axis=1).sum() + jnp.argmax(x) + jax.nn.logsumexp(x),
                x.at[jnp.stack([i, i])].add(1.0), jnp.einsum("ij,kj->ik", x, x, precision="highest"),
                jnp.split(x, [1, 3], axis=1)[1], jnp.where(x > 0.5, x, jnp.nan).var(),
                helper(x, x.T @ x),
                jax.lax.scan(lambda c, r: (c + r.sum(), c * r), 0.0, x)[1],
                jax.lax.fori_loop(0, 3, lambda k, c: c * 1.5 + k, x),
                jax.lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))[1],
                jax.lax.cond(i > 0, lambda a: a + 1, lambda a: a * 2, x),
                jax.vmap(jax.grad(lambda r: jnp.sum(jnp.sin(r) ** 2)))(x))

    evaluator = Evaluator(jax)
    evaluator.ops = log = OpLog(jax)
    x = np.random.default_rng(0).random((3, 4), dtype=np.float32)
    out = []
    for inline in (False, True):  # jitted calls kept whole, and traced op by op
        with jax.disable_jit(inline):
            closed = jax.make_jaxpr(program)(x, 1)
        out += evaluator.run(closed.jaxpr, closed.consts, x, np.int32(1))
    digest = hashlib.sha256(b"".join(np.asarray(o).tobytes() for o in out)).hexdigest()
    print(json.dumps({"misses": log.misses, "ops": log.report(), "digest": digest}))
""")


def evaluate(folder: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", EVALUATE, str(folder)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_what_one_worker_compiled_the_next_one_loads(tmp_path):
    first_cache, shared = tmp_path / "first", tmp_path / "shared"
    first_cache.mkdir()
    shared.mkdir()
    first = evaluate(first_cache)
    assert first["misses"] >= 20
    # jitted calls, loops, branches and a scatter's update program are described too (a split
    # only moves bits: NumPy computes it, nothing is compiled; so does a scatter-add where no
    # element receives two updates, hence the row added to twice)
    kinds = {op["p"] for op in first["ops"]}
    assert {"jit", "scan", "while", "cond", "scatter-add", "dot_general", "sort"} <= kinds
    ops = check_ops(first["ops"])
    assert len(ops) == len(first["ops"])
    compiles = SharedCompiles(shared, idle=False)
    compiles.offer(ops)
    compiles.close(wait_s=240)
    assert compiles.failed == 0
    assert compiles.compiled == len(ops), "every description compiles"
    index = set((shared / shared_compile.INDEX).read_text().split())
    assert index == {op_key(op) for op in ops}
    assert not list(shared.glob(".staging-*")), "the staging folder is removed"
    assert not (shared / shared_compile.PENDING).exists()
    again = evaluate(shared)
    assert again["misses"] == 0, [op["p"] for op in again["ops"]]
    assert again["digest"] == first["digest"], "the shared entries compute the same bits"


def _op(**changes) -> dict:
    op = {"p": "reduce_sum", "params": {"axes": {"t": [1]}, "out_sharding": None},
          "in": [["float32", [5, 3]]]}
    op.update(changes)
    return op


@pytest.mark.parametrize("raw", [
    None, "ops", {"p": "exp"},
    [_op(p="Reduce Sum")], [_op(p="x" * 65)], [_op(params={"axes": 1.5})],
    [_op(params={"axes": 2 ** 63})], [_op(params={"axes": {"t": [1], "x": 2}})],
    [_op(params={"axes": {"code": "import os"}})], [_op(params={"bad key": 1})],
    [_op(**{"in": [["object", [5]]]})], [_op(**{"in": [["float32", [-1]]]})],
    [_op(**{"in": [["float32", [1] * 9]]})], [{**_op(), "extra": 1}],
])
def test_malformed_descriptions_are_dropped(raw):
    assert check_ops(raw) == ()


def _nested(depth: int):
    value = 1
    for _ in range(depth):
        value = {"t": [value]}
    return value


def test_descriptions_are_bounded():
    assert check_ops([_op(params={"deep": _nested(200)})]) == ()
    assert check_ops([_op(params={"deep": _nested(6)})]) == (_op(params={"deep": _nested(6)}),)
    assert len(check_ops([_op()] * 1000)) == 256
    good = _op()
    assert check_ops([good, "junk", _op(p="??"), good]) == (good, good)


def _done(ops, report_ops: bool):
    line = protocol.dumps({"type": "done", "ops": ops, "nonce": "n"}).encode()
    return boundary.decode(line, "n", boundary.Expected(report_ops=report_ops))


def test_the_done_message_carries_ops_only_when_asked():
    with pytest.raises(protocol.ProtocolError):
        _done([_op()], report_ops=False)
    assert _done([_op()], report_ops=True).ops == (_op(),)
    # a malformed list is dropped, never held against the run
    assert _done("not a list", report_ops=True).ops == ()
    assert _done([{"p": 1}], report_ops=True).ops == ()


def _jit_with_options(folder: Path) -> dict:
    """A jitted call whose description asks XLA to dump its programs into ``folder``."""
    program = {"in": [["float32", [3], False]], "consts": [], "eqns": [["exp", [["accuracy", None]], [0], 1]],
               "out": [1], "args": [], "results": []}
    return {"p": "jit", "params": {
        "jaxpr": {"cj": program}, "in_shardings": {"t": [{"special": "unspecified"}]},
        "out_shardings": {"t": [{"special": "unspecified"}]}, "in_layouts": {"t": [None]},
        "out_layouts": {"t": [None]}, "donated_invars": {"t": [False]}, "ctx_mesh": {"special": "mesh"},
        "name": "dump", "keep_unused": False, "inline": False,
        "compiler_options_kvs": {"t": [{"t": ["xla_dump_to", str(folder)]}]}},
        "in": [["float32", [3]]]}


def test_the_compiling_process_refuses_what_is_not_a_jax_operation(tmp_path):
    forged = [
        _op(p="no_such_primitive"),
        _op(p="exp", params={"accuracy": {"special": "not_a_default"}}),
        _op(p="exp", params={"accuracy": {"enum": "os:PathLike", "name": "x"}}),
        _op(p="exp", params={"accuracy": {"enum": "subprocess:Popen", "name": "x"}}),
        _op(p="jit", params={"jaxpr": {"cj": {"in": [], "consts": [], "eqns": [["exp", [], [7], 1]],
                                                "out": [0], "args": [], "results": []}}}),
        _op(p="reduce_sum", params={"axes": {"t": [5]}, "out_sharding": None}),
        _jit_with_options(tmp_path / "dumped"),
    ]
    huge = _op(**{"in": [["float32", [1 << 28, 8]]]})  # compiled from its shape, nothing allocated
    honest = _op()
    compiles = SharedCompiles(tmp_path, idle=False)
    compiles.offer(check_ops([*forged, huge, honest]))
    compiles.close(wait_s=240)
    assert compiles.failed == len(forged)
    assert compiles.compiled == 2
    assert not (tmp_path / "dumped").exists(), "no option reaches the compiler"
    entries = [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")]
    stored = [name for name in entries if name.startswith(stored_ops.PREFIX)]
    entries = [name for name in entries if name not in stored]
    assert len(entries) == 2 and all(name.startswith("jit_reduce_sum-") for name in entries)
    assert len(stored) == 2, "each compiled one is also stored for workers to load as it is"
    # refused ones are done too: no later command sends them again
    again = SharedCompiles(tmp_path, idle=False)
    again.offer(check_ops([*forged, huge, honest]))
    assert again.offered == 0
    again.close()


def test_what_a_compiler_could_not_take_stays_pending(tmp_path):
    ops = [_op(**{"in": [["float32", [n, 3]]]}) for n in range(1, 4)]
    for run in range(3):
        crashing = SharedCompiles(tmp_path, python=str(ROOT / "tests" / "no-such-python"))
        crashing.offer(check_ops(ops))
        crashing.close()
        # the process could not even start: the operations wait in the pending file
        assert crashing.offered == (len(ops) if run == 0 else 0)
    pending = [json.loads(line) for line in (tmp_path / shared_compile.PENDING).read_text().splitlines()]
    assert [p["op"] for p in pending] == ops
    exits = SharedCompiles(tmp_path, python="/bin/true")  # starts, reads nothing, ends
    exits.prime()
    exits._queue.put(None)
    exits.close(wait_s=30)
    assert {p["id"] for p in map(json.loads, (tmp_path / shared_compile.PENDING).read_text().splitlines())} \
        == {op_key(op) for op in ops}
    works = SharedCompiles(tmp_path, idle=False)
    works.prime()  # picks the pending ones up at once
    works.close(wait_s=240)
    assert works.compiled == len(ops)
    assert not (tmp_path / shared_compile.PENDING).exists()


class Recording(SharedCompiles):
    """Records what each worker reported, before the index is consulted."""

    def __init__(self, cache_dir):
        super().__init__(cache_dir, idle=False)
        self.reported = []

    def offer(self, ops):
        self.reported.append(len(ops))
        super().offer(ops)


def test_a_later_worker_finds_what_an_earlier_one_compiled(tmp_path, monkeypatch):
    """A submission with operations the reference does not run (its jitted helpers, evaluated
    operation by operation, reduce along other axes): its first grade compiles them in its
    worker and offers them; its second grade loads them all (and is graded the same)."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    problem = spec.load("per_example_clip")
    path = ROOT / "submissions" / "per_example_clip" / "accepted" / "jit_helpers.py"
    results, reported = [], []
    for _ in range(2):
        compiles = Recording(cache.directory())
        results.append(grading.grade(problem, path, compiles=compiles, hints=False,
                                     examples_only=True))
        compiles.close(wait_s=240)
        reported.append(compiles.reported)
    assert [r.verdict.value for r in results] == ["AC", "AC"]
    assert reported[0][0] >= 3
    assert reported[1] == [0]
    assert [c.verdict for c in results[0].cases] == [c.verdict for c in results[1].cases]


def test_the_compiling_process_takes_only_idle_time(tmp_path):
    compiles = SharedCompiles(tmp_path)  # idle by default
    compiles.offer(check_ops([_op()]))
    pid = compiles._proc.pid
    deadline = time.monotonic() + 60

    def priority():
        return os.getpriority(os.PRIO_PROCESS, pid), os.sched_getscheduler(pid)

    # The process lowers its own priority as it starts: wait until it has. Where the kernel
    # has no idle scheduling class (gVisor refuses it), the lowest nice value is what is left.
    idle = subprocess.run([sys.executable, "-c", "import os; os.sched_setscheduler(0, os.SCHED_IDLE, "
                           "os.sched_param(0))"], capture_output=True).returncode == 0
    wanted = (19, os.SCHED_IDLE if idle else os.SCHED_OTHER)
    while priority() != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
    assert priority() == wanted
    compiles.close(wait_s=240)
    assert compiles.compiled == 1


def _linger(cache_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """The compiling process with nothing on its input: it goes on with the pending file."""
    staging, home = tmp_path / "staging", tmp_path / "home"
    staging.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    env = {**os.environ, "JUDGE_SHARED_CACHE": str(cache_dir), "JAX_COMPILATION_CACHE_DIR": str(staging),
           "HOME": str(home), "JUDGE_COMPILE_IDLE": "0", "JAX_PLATFORMS": "cpu",
           "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
           "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "-1"}
    return subprocess.run([sys.executable, "-c", "from judge.worker.op_compiler import compile_main; "
                           "compile_main()"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=240)


def test_one_process_at_a_time_goes_on_with_what_was_left_pending(tmp_path):
    import fcntl

    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    op = _op()
    (cache_dir / shared_compile.PENDING).write_text(json.dumps({"id": op_key(op), "op": op}) + "\n")
    with open(cache_dir / ".shared-ops-lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another process is at it
        assert _linger(cache_dir, tmp_path).returncode == 0
        assert not (cache_dir / shared_compile.INDEX).exists()
    assert _linger(cache_dir, tmp_path).returncode == 0
    assert (cache_dir / shared_compile.INDEX).read_text().split() == [op_key(op)]
    assert sorted(p.name.split("-")[0] for p in cache_dir.iterdir()
                  if not p.name.startswith(".")) == ["jit_reduce_sum", "stored"]
    assert not (cache_dir / shared_compile.PENDING).exists(), "nothing is pending any more"


def test_one_compiling_process_per_cache_folder(tmp_path):
    """While one command's compiling process runs, another command's starts no second one: its
    operations wait in the pending file, and the running process goes on with them."""
    first_op, second_op = _op(), _op(**{"in": [["float32", [7, 3]]]})
    first = SharedCompiles(tmp_path, idle=False)
    first.offer(check_ops([first_op]))
    deadline = time.monotonic() + 120
    while first.compiled < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert first.compiled == 1  # its process is up, holding the cache
    second = SharedCompiles(tmp_path, idle=False)
    second.offer(check_ops([second_op]))
    second._proc.wait(timeout=120)  # ended at once: the cache is taken
    second.close()
    assert second.compiled == 0
    pending = [json.loads(line)["id"] for line in (tmp_path / shared_compile.PENDING).read_text().splitlines()]
    assert pending == [op_key(second_op)]
    first.close(wait_s=240)
    assert set((tmp_path / shared_compile.INDEX).read_text().split()) == {op_key(first_op), op_key(second_op)}
    assert not (tmp_path / shared_compile.PENDING).exists()
