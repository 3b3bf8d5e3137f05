"""Grade a problem's known submissions and held-out rounds with two trees of the judge, and diff
their JSON reports: a change meant to do less work must leave every verdict, reason, message
and case exactly as it was.

    python benchmarks/report_diff.py dump TREE OUT.json PROBLEM ... [-j 2]
    python benchmarks/report_diff.py diff BEFORE.json AFTER.json

``dump`` grades, with the judge found in TREE (a checkout, or a copy of one: `git archive`),
every file under submissions/<id>/ (the source gate on for accepted/ ones, off for the rest,
as `judge check` grades them) and every file of tests/adversarial/round5 and round6 whose name
starts with the problem's id (gate on, every case), and writes one JSON report per file
(``judge.reports.json_report``) with the times left out and the submission's path relative to
the tree. The result cache is not used; the
compilation cache is the one $JUDGE_CACHE_DIR names. ``diff`` prints each file whose report
differs, and exits 1 if any does. What the rules draw at random for a grade (``no_unrolling``'s
other values and extents, the custom_vjp rule's factors) is drawn from a generator seeded with
the file's label, so that both trees draw the same.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("round5", "round6")


def _timeless(value):
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k != "time_s"}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _untreed(report: dict) -> dict:
    """The report with the submission's path relative to the tree it was graded from, so that
    two trees' reports of one file compare equal."""
    path = report.get("submission")
    if isinstance(path, str) and path.startswith(f"{ROOT}/"):
        report["submission"] = path[len(f"{ROOT}/"):]
    return report


def files(problem: str) -> list[tuple[str, Path, bool]]:
    """(label, path, source gate) for every file graded for ``problem``."""
    found = []
    folder = ROOT / "submissions" / problem
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder)
        found.append((f"{problem}/{rel}", path, rel.parts[0] == "accepted"))
    for name in ROUNDS:
        for path in sorted((ROOT / "tests" / "adversarial" / name).glob(f"{problem}*.py")):
            found.append((f"{name}/{path.name}", path, True))
    return found


class _Drawn(threading.local):
    """``secrets`` as the rules use it, drawn from the grading thread's seeded generator."""

    rng = random.Random(0)

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)

    def token_bytes(self, n: int) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(n))


def dump(tree: str, out: str, problems: list[str], jobs: int, only: str | None = None) -> int:
    sys.path.insert(0, str(Path(tree).resolve()))
    from judge.grade import grading
    from judge.problem import spec
    from judge.reports import json_report
    from judge.rules import custom_vjp_grads, no_unrolling

    drawn = _Drawn()
    no_unrolling.secrets = custom_vjp_grads.secrets = drawn

    reports = {}
    for problem_id in problems:
        problem = spec.load(Path(tree) / "problems" / f"{problem_id}.yaml")
        grading.warm_cache(problem, parts=jobs)

        def one(item):
            label, path, gated = item
            drawn.rng = random.Random(label)
            result = grading.grade(problem, path, source_gate=gated, hints=True)
            return label, _untreed(_timeless(json.loads(json_report.render(result))))

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            chosen = [f for f in files(problem_id) if only is None or only in f[0]]
            for label, report in pool.map(one, chosen):
                reports[label] = report
                print(f"{label}: {report['verdict']} {report['reason']}", flush=True)
    Path(out).write_text(json.dumps(reports, indent=1, sort_keys=True))
    return 0


def diff(before: str, after: str) -> int:
    a, b = json.loads(Path(before).read_text()), json.loads(Path(after).read_text())
    differ = 0
    for label in sorted(set(a) | set(b)):
        if a.get(label) != b.get(label):
            differ += 1
            print(f"differs: {label}")
            for side, data in (("before", a.get(label)), ("after", b.get(label))):
                if data is None:
                    print(f"  {side}: missing")
                    continue
                print(f"  {side}: {data['verdict']} {data['reason']}: {data['message'][:300]}")
                other = (b if side == "before" else a).get(label) or {}
                for case, theirs in zip(data["cases"], other.get("cases", [])):
                    if case != theirs:
                        print(f"    case {case['index']}: {case['verdict']} {case['reason']}: "
                              f"{case['message'][:200]}")
    print(f"{len(set(a) | set(b))} reports, {differ} differ")
    return 1 if differ else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("tree")
    d.add_argument("out")
    d.add_argument("problems", nargs="+")
    d.add_argument("-j", "--jobs", type=int, default=2)
    d.add_argument("--only", help="only the files whose label holds this text")
    c = sub.add_parser("diff")
    c.add_argument("before")
    c.add_argument("after")
    args = parser.parse_args(argv)
    if args.command == "dump":
        os.environ.setdefault("JUDGE_RESULT_CACHE", "off")
        return dump(args.tree, args.out, args.problems, args.jobs, args.only)
    return diff(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
