"""The baseline a judge is measured against: one fresh process that imports JAX, imports a
submission and calls it on every case of a problem, with no checks, no tracing and no sandbox.

    python benchmarks/bare_run.py SUBMISSION PROBLEM_SPEC

Prints the seconds spent importing JAX and running the cases.
"""

import importlib.util
import sys
import time

started = time.perf_counter()
import jax  # noqa: E402

imported = time.perf_counter()

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
from judge.problem import spec  # noqa: E402  (loads YAML and NumPy only)

submission, spec_path = sys.argv[1], sys.argv[2]
problem = spec.load(spec_path)
module_spec = importlib.util.spec_from_file_location("submission", submission)
module = importlib.util.module_from_spec(module_spec)
module_spec.loader.exec_module(module)
entry = getattr(module, problem.entry_point)
cases_started = time.perf_counter()
for case in problem.cases:
    out = entry(*[case.inputs[p.name] for p in problem.parameters])
    jax.block_until_ready(out)
done = time.perf_counter()
print(f"import {imported - started:.3f} cases {done - cases_started:.3f} total {done - started:.3f}")
