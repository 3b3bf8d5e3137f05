"""Operations stored compiled in the cache folder and loaded by a worker without tracing them
again (``judge.worker.stored_ops``): what they compute, what they are keyed by, and who may
write them."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from judge.run.shared_compile import SharedCompiles, check_ops
from judge.worker import stored_ops

from tests.helpers import ROOT

#: In a process of its own, pointed at the cache folder argv[1]: evaluates programs of many
#: kinds, argv[2] saying how: "fill" (a trusted run that stores what it compiles, every
#: operation bound by JAX, then the NumPy evaluator), "stored" (the NumPy evaluator loading
#: stored operations), "plain" (the NumPy evaluator, none loaded), "described" (as "plain",
#: with the operations that missed the cache described for the compiling process); argv[3]
#: (optional) is code run before the programs, as a submission's would be. Prints the counts,
#: the outputs' bytes' digest, each output's type and aval, and the operations described.
PROGRAMS = textwrap.dedent("""
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
    from judge.worker.stored_ops import StoredOps

    mode = sys.argv[2]
    fill = mode == "fill"
    evaluators = [Evaluator(jax, uses_numpy=False), Evaluator(jax)] if fill else [Evaluator(jax)]
    stored = StoredOps(jax, sys.argv[1], writable=fill) if mode in ("fill", "stored") else None
    for evaluator in evaluators:
        evaluator.stored = stored
    log = None
    if mode == "described":
        evaluators[0].ops = log = OpLog(jax)
    exec(sys.argv[3] if len(sys.argv) > 3 else "")

    def power(w, u0):
        def body(_, u):
            v = w.T @ u
            v = v / jnp.linalg.norm(v)
            u = w @ v
            return u / jnp.linalg.norm(u)
        u = jax.lax.fori_loop(0, 5, body, u0)
        return u @ w @ jax.lax.stop_gradient(w.T @ u)

    def attention(q, k, v):
        s = jax.nn.softmax(q @ k.T / jnp.sqrt(q.shape[-1]), axis=-1)
        return jnp.tanh(s @ v).sum(), jnp.argmax(s, axis=1), jnp.sort(s, axis=0)

    def half(w, x):
        h = jnp.tanh(x.astype(jnp.float16) @ w.astype(jnp.float16))
        return jnp.mean(h ** 2), jnp.exp(h).astype(jnp.float32), jnp.cumsum(x, axis=0)

    def weak(x):
        y = jnp.full(x.shape, 2.0) * 3.0          # weakly typed arrays, bound as they are
        return jnp.exp(y) + x, jnp.sin(y), (x > 0.5).astype(jnp.int32) * 7

    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.uniform(-2, 2, s).astype(np.float32)
    cases = []
    for m in (3, 4):
        cases += [(jax.value_and_grad(power), (f32(m, 5), f32(m))),
                  (jax.grad(lambda q, k, v: attention(q, k, v)[0], (0, 1, 2)), (f32(m, 4), f32(6, 4), f32(6, 3))),
                  (attention, (f32(m, 4), f32(6, 4), f32(6, 3))),
                  (jax.value_and_grad(lambda w, x: half(w, x)[0]), (f32(4, m), f32(5, 4))),
                  (half, (f32(4, m), f32(5, 4))), (weak, (f32(m, 2),))]
    outs = []
    for evaluator in evaluators:
        outs = []
        for fun, args in cases:
            closed = jax.make_jaxpr(fun)(*args)
            outs += evaluator.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)
    digest = hashlib.sha256(b"".join(np.asarray(o).tobytes() for o in outs)).hexdigest()
    avals = [[type(o).__name__, str(getattr(o, "aval", np.asarray(o).dtype)),
              bool(getattr(getattr(o, "aval", None), "weak_type", False))] for o in outs]
    print(json.dumps({"counts": stored.counts if stored else None, "digest": digest,
                      "avals": avals, "ops": log.report() if log else []}))
""")


def run(folder: Path, mode: str, before: str = "") -> dict:
    done = subprocess.run([sys.executable, "-c", PROGRAMS, str(folder), mode, before],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def stored_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(stored_ops.PREFIX))


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> tuple[Path, dict]:
    """A cache folder filled by a trusted run, which stored what it compiled."""
    folder = tmp_path_factory.mktemp("filled")
    return folder, run(folder, "fill")


def test_a_trusted_run_stores_what_it_compiles_and_a_worker_loads_it(filled, tmp_path):
    folder, fill = filled
    assert fill["counts"]["kept"] >= 20 and len(stored_files(folder)) == fill["counts"]["kept"]
    assert not [p for p in folder.iterdir() if p.name.endswith(".part")]
    loaded = run(folder, "stored")
    assert loaded["counts"]["found"] >= 20
    assert loaded["counts"]["kept"] == 0, "a worker that is not trusted keeps nothing"
    plain = run(folder, "plain")
    # the same bits as the operations JAX traces, lowers and loads itself, and the same avals
    # (weak types included), as the trusted run's own
    assert loaded["digest"] == plain["digest"] == fill["digest"]
    assert loaded["avals"] == plain["avals"]


def test_a_stored_operation_is_found_only_under_the_configuration_it_was_keyed_by(filled):
    folder, fill = filled
    changed = run(folder, "stored", "jax.config.update('jax_default_matmul_precision', 'highest')")
    assert changed["counts"]["found"] == 0
    assert changed["digest"] == run(folder, "plain", "jax.config.update('jax_default_matmul_precision', "
                                                     "'highest')")["digest"]


def test_a_damaged_or_swapped_file_is_never_loaded(filled, tmp_path):
    folder, fill = filled
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    names = stored_files(copy)
    for i, name in enumerate(names):  # each file holds another's executable, or garbage
        target = copy / name
        if i % 2:
            target.write_bytes(b"\x80\x04 not a stored operation")
        else:
            shutil.copyfile(folder / names[(i + 1) % len(names)], target)
    loaded = run(copy, "stored")
    assert loaded["counts"]["found"] == 0
    assert loaded["digest"] == fill["digest"]


def test_a_primitive_of_the_submission_named_as_one_of_jax_is_never_loaded(filled):
    folder, fill = filled
    # its own exp, sin and tanh, implemented as JAX implements its own, computing something else
    before = textwrap.dedent("""
        from functools import partial
        from jax._src import core, dispatch
        from jax.interpreters import ad, mlir
        import jax._src.lax.lax as lax_internal
        def own(name, real):
            p = core.Primitive(name)
            p.def_impl(partial(dispatch.apply_primitive, p))
            p.def_abstract_eval(lambda x, **_: core.ShapedArray(x.shape, x.dtype))
            mlir.register_lowering(p, mlir.lower_fun(lambda x, **_: real(x) + 1, multiple_results=False))
            ad.defjvp(p, lambda g, x, **_: g)
            return p
        for name, real in (("exp", jnp.cos), ("sin", jnp.cos), ("tanh", jnp.cos)):
            setattr(jnp, name, (lambda p: lambda x: p.bind(x))(own(name, real)))
    """)
    loaded = run(folder, "stored", before)
    plain = run(folder, "plain", before)
    assert loaded["digest"] == plain["digest"] != fill["digest"]


def test_the_compiling_process_stores_what_a_worker_then_loads(tmp_path):
    first, shared = tmp_path / "first", tmp_path / "shared"
    first.mkdir()
    shared.mkdir()
    described = run(first, "described")
    ops = check_ops(described["ops"])
    assert len(ops) >= 20
    compiles = SharedCompiles(shared, idle=False)
    compiles.offer(ops)
    compiles.close(wait_s=240)
    assert compiles.compiled == len(ops)
    assert len(stored_files(shared)) >= 20
    loaded = run(shared, "stored")
    assert loaded["counts"]["found"] >= 20
    assert loaded["digest"] == described["digest"]
    assert loaded["avals"] == run(shared, "plain")["avals"]


def test_what_a_digest_describes():
    import numpy as np

    env, context = ["environment"], "context"
    key = stored_ops.op_key(env, context, "exp", {"accuracy": None}, [["float32", [3], False]])
    assert len(key) == 64
    differs = [
        stored_ops.op_key(env, context, "exp", {"accuracy": None}, [["float32", [3], True]]),
        stored_ops.op_key(env, context, "exp", {"accuracy": None}, [["float32", [4], False]]),
        stored_ops.op_key(env, context, "log", {"accuracy": None}, [["float32", [3], False]]),
        stored_ops.op_key(env, "other", "exp", {"accuracy": None}, [["float32", [3], False]]),
        stored_ops.op_key(["other"], context, "exp", {"accuracy": None}, [["float32", [3], False]]),
    ]
    assert key not in differs and len(set(differs)) == len(differs)
    assert stored_ops.encode(1) != stored_ops.encode(True) != stored_ops.encode(1.0)
    assert stored_ops.encode((1, 2)) != stored_ops.encode("(1, 2)")
    assert stored_ops.encode(-0.0) != stored_ops.encode(0.0)
    for value in (np.int32(1), np.float32(1), float("nan"), [1], {"a": 1}, object(), np.zeros(2)):
        with pytest.raises(stored_ops.NotStored):
            stored_ops.encode(value)


def test_an_operation_whose_lowering_was_replaced_is_never_loaded(filled):
    folder, fill = filled
    before = textwrap.dedent("""
        from jax._src.lax import lax as lax_internal
        from jax.interpreters import mlir
        for p in (lax_internal.exp_p, lax_internal.tanh_p, lax_internal.sin_p):
            mlir.register_lowering(p, mlir.lower_fun(lambda x, **_: jnp.cos(x) + 1, multiple_results=False))
    """)
    loaded = run(folder, "stored", before)
    assert loaded["counts"]["found"] > 0, "the other operations are loaded"
    assert loaded["digest"] == run(folder, "plain", before)["digest"] != fill["digest"]


def test_nothing_is_loaded_while_jax_checks_for_nan(filled):
    folder, fill = filled
    checked = run(folder, "stored", "jax.config.update('jax_debug_infs', True)")
    assert checked["counts"]["found"] == 0
    assert checked["digest"] == fill["digest"]


#: An honest submission that, when imported, reaches the worker's stored operations: a lookup of
#: its own on the instance, or a method of its own on the class (its code would then run at each
#: operation JAX binds, where it could hand back an executable of its own). Either is tampering.
SWAP_FIND = '''
import gc

for o in gc.get_objects():
    if type(o).__name__ == "StoredOps":
        o.load_compiled = lambda serialized: None
'''
PATCH_FIND = '''
import gc

for o in gc.get_objects():
    if type(o).__name__ == "StoredOps":
        type(o).find = lambda *args: None
'''


@pytest.mark.parametrize("tamper", [SWAP_FIND, PATCH_FIND], ids=["swap an attribute", "patch find"])
def test_the_stored_operations_are_watched_like_the_other_instruments(tmp_path, monkeypatch, tamper):
    from judge.grade import grading
    from judge.problem import spec

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JUDGE_CACHE", "on")
    problem = spec.load("fake_quant_ste")
    honest = (ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py").read_text()
    path = tmp_path / "fake_quant_ste.py"
    path.write_text(honest)
    assert grading.grade(problem, path, examples_only=True, hints=False, source_gate=False).verdict.value == "AC"
    path.write_text(honest + tamper)
    result = grading.grade(problem, path, examples_only=True, hints=False, source_gate=False)
    assert (result.verdict.value, result.reason) == ("RJ", "instrument_tampered"), result.message


#: argv[1]: the cache folder; argv[2]: "fill" (a trusted run that stores what it compiles) or
#: "stored" (a worker loading stored operations). Evaluates an SVD and an eigendecomposition,
#: which JAX lowers to LAPACK's functions on the CPU, and prints the stored files' count and
#: the values.
LAPACK = textwrap.dedent("""
    import json, os, sys
    import numpy as np
    import jax, jax.numpy as jnp
    for key, value in {"jax_compilation_cache_dir": sys.argv[1],
                       "jax_persistent_cache_min_compile_time_secs": 0,
                       "jax_persistent_cache_min_entry_size_bytes": -1,
                       "jax_persistent_cache_enable_xla_caches": "none"}.items():
        jax.config.update(key, value)
    from judge.worker.evaluate import Evaluator
    from judge.worker.stored_ops import PREFIX, StoredOps

    evaluator = Evaluator(jax, uses_numpy=sys.argv[2] != "fill")
    evaluator.stored = StoredOps(jax, sys.argv[1], writable=sys.argv[2] == "fill")
    x = np.arange(9, dtype=np.float32).reshape(3, 3) / 7 + np.eye(3, dtype=np.float32)
    outs = []
    for fun in (lambda a: jnp.linalg.svd(a, compute_uv=False),
                lambda a: jnp.linalg.eigh(a @ a.T)[0], lambda a: jnp.tanh(a) + 1):
        closed = jax.make_jaxpr(fun)(x)
        outs += [np.asarray(o).tolist() for o in evaluator.run(closed.jaxpr, closed.consts, x)]
    print(json.dumps({"files": len([n for n in os.listdir(sys.argv[1]) if n.startswith(PREFIX)]),
                      "values": outs}))
""")


def test_an_operation_that_calls_outside_xla_is_never_stored(tmp_path):
    """LAPACK's functions are looked up when JAX lowers the operation: an SVD's executable
    loaded by a process that never lowered one would crash it (signal 11), so it is not kept."""
    def run_lapack(mode: str) -> dict:
        done = subprocess.run([sys.executable, "-c", LAPACK, str(tmp_path), mode],
                              capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env={**os.environ, "JAX_PLATFORMS": "cpu"})
        assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
        return json.loads(done.stdout.strip().splitlines()[-1])

    filled = run_lapack("fill")
    assert filled["files"] >= 1  # the elementwise operations are stored
    loaded = run_lapack("stored")
    assert loaded["values"] == filled["values"]
    import jax
    import jax.numpy as jnp

    x = jnp.ones((3, 3), jnp.float32)
    assert stored_ops.calls_out(jax.jit(lambda a: jnp.linalg.svd(a, compute_uv=False)).lower(x).compile())
    assert not stored_ops.calls_out(jax.jit(lambda a: a * 2).lower(x).compile())
    assert not stored_ops.write(str(tmp_path), "svd", jax.jit(jnp.linalg.eigvalsh).lower(x).compile())


def test_a_fill_stores_every_operation_it_compiled_under_a_derivative_too(tmp_path, monkeypatch):
    """The reference's runs that fill the cache for `judge check` store each operation they
    compiled. Those bound under a derivative's name stack (``u @ W`` in spectral_norm's vjp)
    were not: lowered again to be stored, their module differed from the binding's in what the
    cache's key leaves out, so the cache gave its entry back, which does not serialize whole,
    and every worker then traced, lowered and hashed them again. A trusted run now compiles an
    operation before it runs it, and stores what that compiled; the values are the same, loaded
    or bound by JAX without any cache."""
    from judge.grade import grading
    from judge.problem import spec
    from judge.run import cache

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path))
    problem = spec.load(spec.resolve("spectral_norm"))
    problem = dataclasses.replace(problem, cases=problem.cases[:4])
    filled = grading.fill_cache(problem, parts=1, bind_all=False)
    assert filled is not None and len(filled) == 4
    names = os.listdir(cache.directory())
    compiled = [n for n in names if n.startswith("jit_dot_general-")]  # the only one it binds
    stored = [n for n in names if n.startswith(stored_ops.PREFIX)]
    assert compiled and len(stored) == len(compiled)
    again = grading.reference_outputs(problem, problem.cases)  # loading what was stored
    monkeypatch.setenv("JUDGE_CACHE", "off")
    alone = grading.reference_outputs(problem, problem.cases)  # JAX's own path, no cache
    for found in (again, alone):
        assert found.keys() == filled.keys()
        for index, outputs in found.items():
            assert outputs.keys() == filled[index].keys()
            for name, value in outputs.items():
                assert np.asarray(value).tobytes() == np.asarray(filled[index][name]).tobytes()
