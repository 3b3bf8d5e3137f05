"""What naming the submission's lines costs the program summary the rules read
(``judge.worker.program.summarize`` with and without ``source``), side by side, in one run.

    python benchmarks/summary_lines.py [--steps 3000] [--runs 5]

Traces a program of about 2 * STEPS equations (a Python loop of STEPS steps, then a gradient)
from a file of its own, summarizes it with and without the file's lines, interleaved, and prints
the median seconds of each, their ratio, and the trace's own time for scale.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from judge.worker import program  # noqa: E402

SOURCE = """import jax, jax.numpy as jnp
def f(x):
    for _ in range({steps}):
        x = jnp.sin(x) * 1.01
    return jax.grad(lambda z: jnp.sum(jnp.tanh(z)))(x)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "submission.py"
        path.write_text(SOURCE.format(steps=args.steps))
        spec = importlib.util.spec_from_file_location("submission", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        started = time.perf_counter()
        closed = jax.make_jaxpr(module.f)(jnp.ones(3))
        traced = time.perf_counter() - started
        plain, lined = [], []
        for _ in range(args.runs):
            for into, source in ((plain, None), (lined, str(path))):
                started = time.perf_counter()
                program.summarize(closed, source=source)
                into.append(time.perf_counter() - started)
    a, b = statistics.median(plain), statistics.median(lined)
    print(f"{len(closed.jaxpr.eqns)} equations, traced in {traced:.3f} s")
    print(f"summary without lines  {a:.3f} s")
    print(f"summary with lines     {b:.3f} s")
    print(f"ratio                  {b / a:.2f}")


if __name__ == "__main__":
    main()
