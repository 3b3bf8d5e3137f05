"""What the custom_vjp rule costs per case, against an earlier version of the judge, in one run.

    python benchmarks/rule_cost.py [--base REV] [--runs 3] [SUBMISSION ...]

Checks out REV (default: the commit before the one-trace rule, fd894d8) into a temporary git
worktree and grades the same submissions (default: every accepted fake_quant_ste submission)
with that judge and with this checkout, interleaved, on all cases with `--sandbox none` (so the
sandbox's start-up is not in the figures). Prints, per version, the median over runs of the
summed per-case times the judge reports (tracing, evaluating and measuring the rule; start-up
excluded), and their ratio (lower is better for this checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted"


def case_seconds(checkout: Path, submission: Path) -> float:
    out = subprocess.run([sys.executable, "-m", "judge", "grade", str(submission), "--problem",
                          str(checkout / "problems" / "fake_quant_ste.yaml"), "--format", "json",
                          "--sandbox", "none"],
                         cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)},
                         capture_output=True, text=True, check=False)
    report = json.loads(out.stdout)
    if report["verdict"] != "AC":
        raise SystemExit(f"{submission.name} got {report['verdict']} from {checkout}: {report['message']}")
    return sum(case["time_s"] or 0.0 for case in report["cases"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="fd894d8")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("submissions", nargs="*", type=Path)
    args = parser.parse_args()
    subs = args.submissions or sorted(ACCEPTED.glob("*.py"))
    with tempfile.TemporaryDirectory(prefix="judge-base-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base],
                       check=True, capture_output=True)
        try:
            times = {"base": {}, "this": {}}
            for _ in range(args.runs):
                for sub in subs:
                    if "two_rules" in sub.name:
                        continue  # the earlier rule rejected this honest style
                    for label, checkout in (("base", base), ("this", ROOT)):
                        times[label].setdefault(sub.name, []).append(case_seconds(checkout, sub))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False, capture_output=True)
    print(f"{os.cpu_count()} cores; median of {args.runs} runs of the summed case times, all cases")
    print(f"{'submission':<28} {args.base:>10} {'this':>10} {'ratio':>7}")
    totals = {"base": 0.0, "this": 0.0}
    for name in times["this"]:
        b, t = (statistics.median(times[k][name]) for k in ("base", "this"))
        totals["base"] += b
        totals["this"] += t
        print(f"{name:<28} {b:>9.2f}s {t:>9.2f}s {t / b:>7.2f}")
    print(f"{'all':<28} {totals['base']:>9.2f}s {totals['this']:>9.2f}s "
          f"{totals['this'] / totals['base']:>7.2f}")


if __name__ == "__main__":
    main()
