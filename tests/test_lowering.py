"""The worker's shared MLIR contexts (``judge.worker.lowering``): the same lowered programs, so
the same compilation-cache entries and the same values, for less setup."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT, pythonpath

PROGRAM = r"""
import json, sys, threading
sys.path.insert(0, {root!r})
import jax, jax.numpy as jnp, numpy as np
from judge.worker import lowering
shared = sys.argv[1] == "shared"
if shared:
    assert lowering.share_contexts()
from jax._src.interpreters import mlir
same_thread = mlir.make_ir_context() is mlir.make_ir_context()
other = []
thread = threading.Thread(target=lambda: other.append(mlir.make_ir_context()))
thread.start(); thread.join()
out = []
for n in (1, 3, 5):
    x = np.linspace(-2.5, 2.5, n * 2, dtype=np.float32).reshape(n, 2)
    y = 0.3 * jnp.clip(jnp.round(x / 0.3), -3, 3)
    g = jax.grad(lambda v: jnp.sum(jnp.tanh(v) * v))(x)
    out.append(np.asarray(y).tobytes().hex() + np.asarray(g).tobytes().hex())
print(json.dumps({{"same_thread": same_thread, "other_thread": other[0] is not mlir.make_ir_context(),
                  "values": out}}))
"""


def run(mode: str, cache: Path) -> dict:
    env = {"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu", "PYTHONPATH": pythonpath(),
           "JAX_COMPILATION_CACHE_DIR": str(cache), "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
           "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "-1",
           "JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES": "none"}
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(root=str(ROOT)), mode], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_shared_contexts_lower_the_same_programs(tmp_path):
    cache = tmp_path / "xla"
    plain = run("plain", cache)
    entries = sorted(p.name for p in cache.iterdir())
    assert entries and not plain["same_thread"]
    shared = run("shared", cache)
    assert shared["same_thread"] and shared["other_thread"]  # one per thread
    assert shared["values"] == plain["values"]
    # every program lowered with a shared context was found under the key a fresh context gives
    assert sorted(p.name for p in cache.iterdir()) == entries


PRELOAD = r"""
import json, os, sys
sys.path.insert(0, {root!r})
import jax
from jax._src import xla_bridge
from judge.worker import lowering
lowering.preload()
found = {{"searched": xla_bridge._plugins_registered, "backends": bool(xla_bridge._backends)}}
r, w = os.pipe()
pid = os.fork()
if pid == 0:  # a forked worker computes with a backend of its own
    import jax.numpy as jnp
    os.write(w, str(float(jnp.sum(jnp.arange(4.0)))).encode())
    os._exit(0)
os.waitpid(pid, 0)
found["child"] = os.read(r, 100).decode()
print(json.dumps(found))
"""


def test_preload_searches_for_plugins_before_the_fork_and_creates_no_backend():
    done = subprocess.run([sys.executable, "-c", PRELOAD.format(root=str(ROOT))],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu", "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found == {"searched": True, "backends": False, "child": "6.0"}
