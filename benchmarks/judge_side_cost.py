"""What the judge process itself spends on a submission: its own CPU time and peak memory, for
an honest submission and for the worst judge-side submissions we know, side by side in one run.

    python benchmarks/judge_side_cost.py [--examples-only]

Each submission is graded by a fresh `judge grade --format json` process; the figures are that
process's own CPU time and peak resident memory (``RUSAGE_SELF`` of a small wrapper that runs the
judge in-process), not the worker's: a submission may burn its own limits, but what the judge
spends deciding should be bounded by the problem, not by what the submission sends. Ratios are
against the honest submission.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADV = ROOT / "tests" / "adversarial" / "judge_side"

MEASURE = r"""
import json, resource, sys, io, contextlib
from judge.grade import grading
from judge.problem import spec
problem = spec.load(sys.argv[1])
out = io.StringIO()
with contextlib.redirect_stderr(out):
    result = grading.grade(problem, sys.argv[2], examples_only=sys.argv[3] == "1", hints=False)
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"verdict": result.verdict.value, "reason": result.reason,
                  "cpu_s": use.ru_utime + use.ru_stime, "rss_mb": use.ru_maxrss / 1024}))
"""


def measure(problem: str, path: Path, examples_only: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", MEASURE, problem, str(path), "1" if examples_only else "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        return {"verdict": "?", "reason": done.stderr.strip().splitlines()[-1][:60] if done.stderr else "?",
                "cpu_s": float("nan"), "rss_mb": float("nan")}
    return json.loads(done.stdout.strip().splitlines()[-1])


def big_source(folder: Path, size: int, name: str) -> Path:
    """A source of about ``size`` bytes: the honest solution and many harmless lines."""
    honest = (ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py").read_text()
    lines, total, i = [honest], len(honest), 0
    while True:
        line = f"_v{i} = ({i} + 1) * 2\n"
        if total + len(line) > size:
            break
        lines.append(line)
        total += len(line)
        i += 1
    path = folder / name
    path.write_text("".join(lines))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples-only", action="store_true", help="grade only the examples (faster)")
    args = parser.parse_args()
    from judge.gate import MAX_SOURCE_BYTES as cap

    with tempfile.TemporaryDirectory() as tmp:
        rows = [
            ("honest (closure_vjp.py)", "fake_quant_ste",
             ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"),
            ("9,990 extra keys per case", "fake_quant_ste", ADV / "keys_bloat.py"),
            ("two-million-entry probe output", "sign_ste", ADV / "probe_output_bomb.py"),
            (f"{cap // 1024} KiB source (the gate's cap)", "fake_quant_ste",
             big_source(Path(tmp), cap, "at_cap.py")),
            ("1 MiB source (over the cap)", "fake_quant_ste",
             big_source(Path(tmp), 1024 * 1024, "over_cap.py")),
        ]
        results = [(label, measure(problem, path, args.examples_only)) for label, problem, path in rows]
    base = results[0][1]
    print(f"{'submission':34} {'verdict':24} {'judge CPU s':>11} {'ratio':>6} {'peak MB':>8} {'ratio':>6}")
    for label, r in results:
        print(f"{label:34} {r['verdict'] + ' ' + r['reason']:24} {r['cpu_s']:11.2f} "
              f"{r['cpu_s'] / base['cpu_s']:6.2f} {r['rss_mb']:8.0f} {r['rss_mb'] / base['rss_mb']:6.2f}")


if __name__ == "__main__":
    main()
