#!/usr/bin/env bash
# The judge on a Cloud TPU VM (or any machine whose JAX lives in a folder PYTHONPATH names), run
# from the checkout as docs/install.md says: which JAX and cores are there, the README's grade
# command, and then either the test suite or the batch figures.
#
#     bash benchmarks/tpu_machine.sh tests   [WHEELS] [ARGS...]   # python -m pytest [ARGS], logs under $OUT or /tmp
#     bash benchmarks/tpu_machine.sh scaling [WHEELS] [ARGS...]   # benchmarks/batch_scaling.py, classes of 52 and 130
#
# ARGS go to pytest (test files: the whole suite takes longer than ten minutes there) or to each
# batch_scaling.py run (for example --no-ahead).
#
# WHEELS, if given, is a folder of wheels for what the machine lacks (the judge's requirements and
# its test extras, `pip download` of them for this machine's Python): they are installed under
# /tmp/judge-site, which goes at the end of PYTHONPATH, so that the machine's own JAX stays
# first. Caches go to fresh folders under /tmp. Every step's output goes to stdout; the exit
# status is non-zero when a step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-tests}
wheels=${2:-}
shift $(( $# < 2 ? $# : 2 ))
out=${OUT:-/tmp/tpu-machine}
mkdir -p "$out"
status=0
step() { echo; echo "== $*"; "$@" || { echo "!! failed ($?): $*"; status=1; }; }

if [ -n "$wheels" ]; then
    PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile \
        --no-cache-dir --upgrade --target /tmp/judge-site "$wheels"/*.whl || exit 1
    export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}/tmp/judge-site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD
export PYTHONUNBUFFERED=1
scratch=$(mktemp -d /tmp/judge-tpu.XXXXXX)
export JUDGE_CACHE_DIR=$scratch/cache XDG_CACHE_HOME=$scratch/xdg XDG_DATA_HOME=$scratch/data

step python3 - <<'PY'
import os, sys
import jax
print("python", sys.version.split()[0], "| jax", jax.__version__, "from", os.path.dirname(jax.__file__),
      "|", len(os.sched_getaffinity(0)), "usable cores")
PY
# no bubblewrap under gVisor: graded unsandboxed, with the judge's warning
step python3 -m judge grade submissions/fake_quant_ste/accepted/closure_vjp.py --problem fake_quant_ste --sandbox auto

case $mode in
tests)
    start=$(date +%s)
    # One process per two cores: the tests wait on workers and time limits, and gVisor makes
    # every process start slow.
    step python3 -m pytest -n "${TEST_JOBS:-13}" -p no:cacheprovider -p no:benchmark -v --tb=short \
        --junitxml="$out/junit.xml" "$@" > "$out/pytest.log" 2>&1
    grep -E "^(FAILED|ERROR)|^\[gw[0-9]+\].* (FAILED|ERROR)" "$out/pytest.log" | head -40
    tail -5 "$out/pytest.log"
    echo "python -m pytest: $(( $(date +%s) - start )) s"
    ;;
scaling)
    step python3 benchmarks/batch_scaling.py "$@"
    step python3 benchmarks/batch_scaling.py --class-size 130 "$@"
    ;;
*)
    echo "unknown mode $mode (tests or scaling)"; exit 2 ;;
esac
rm -rf "$scratch"
exit $status
