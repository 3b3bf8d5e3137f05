#!/usr/bin/env bash
# The judge on a machine with a GPU and jax[cuda] installed beside the project, for whoever has
# one: which JAX and plugin are there, the README's grade command, `judge check` on every
# problem, and `judge batch` over a class at -j 1 and at one job per core, beside bare
# processes (benchmarks/batch_scaling.py). Submissions run on the CPU there too (the worker
# sets JAX_PLATFORMS=cpu; docs/install.md: "Which JAX, which machine").
#
#     bash benchmarks/gpu_machine.sh
#
# Run from anywhere; it works in the checkout. Every step's output goes to stdout; the exit
# status is non-zero when a step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
status=0
step() { echo; echo "== $*"; "$@" || { echo "!! failed ($?): $*"; status=1; }; }

step "$python" - <<'PY'
import os, sys
import jax
print("python", sys.version.split()[0], "| jax", jax.__version__, "|", os.cpu_count(), "cores")
try:
    print("devices a plain process sees:", jax.devices())
except RuntimeError as exc:  # jax[cuda] installed on a machine without a usable GPU
    print("a plain process sees no usable GPU:", str(exc).splitlines()[0][:200])
PY
step "$python" -m pip list --format freeze 2>/dev/null | grep -i -E '^(jax|jaxlib|jax-cuda|nvidia-cudnn)' || true
step "$python" -c "import resource, subprocess, sys; subprocess.run([sys.executable, '-c', 'import jax; jax.devices()'], env={'JAX_PLATFORMS': 'cpu', 'PATH': '/usr/bin:/bin'}); print('peak resident MiB of a CPU-only JAX start:', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)"
step "$python" -m judge grade submissions/fake_quant_ste/accepted/closure_vjp.py --problem fake_quant_ste
problems=$(ls problems/*.yaml | xargs -n1 basename | sed 's/\.yaml$//')
start=$(date +%s)
step "$python" -m judge check $problems -j auto
echo "judge check of every problem: $(( $(date +%s) - start )) s"
step "$python" benchmarks/batch_scaling.py --class-size 32
exit $status
