"""Refresh ``docs/figures.yml``: the figures that change with every run, kept in one place.

``python docs/gen/figures.py`` counts the tests of each group (pytest's collection alone, about
15 s) and writes the counts; ``--time`` also runs the default group as the docs tell readers to
(``python -m pytest``), and records how many passed and how long it took, with the date and the
machine's core count. The docs' pages take these values by name (``{{ figures.tests.default.
collected }}``, resolved by ``docs/gen/hooks.py``); nothing else in the docs states them.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures.yml"
COUNT = """
import sys, pytest
class Count:
    def pytest_collection_modifyitems(self, items):
        slow = [i for i in items if i.get_closest_marker("slow")]
        sweep = [i for i in slow if i.get_closest_marker("sweep")]
        print(f"COUNTS {len(items) - len(slow)} {len(slow)} {len(sweep)}")
sys.exit(pytest.main(["--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                      "-m", "slow or not slow"], plugins=[Count()]))
"""


def counts() -> dict:
    r = subprocess.run([sys.executable, "-c", COUNT], cwd=ROOT, capture_output=True, text=True)
    found = re.search(r"^COUNTS (\d+) (\d+) (\d+)$", r.stdout, re.M)
    if r.returncode != 0 or not found:
        raise SystemExit(f"docs/gen/figures.py: pytest's collection failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    default, slow, sweep = map(int, found.groups())
    return {"default": default, "slow": slow, "sweep": sweep}


def timed_default_run() -> dict:
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                       capture_output=True, text=True)
    seconds = round(time.monotonic() - start)
    passed = re.findall(r"(\d+) passed", r.stdout)
    if r.returncode != 0 or not passed:
        raise SystemExit(f"docs/gen/figures.py: the default run failed:\n{r.stdout[-3000:]}")
    return {"passed": int(passed[-1]), "time": f"{seconds // 60} min {seconds % 60} s",
            "date": datetime.date.today().isoformat(), "cores": len(os.sched_getaffinity(0))}


def main(argv: list[str]) -> int:
    if argv not in ([], ["--time"]):
        print("usage: python docs/gen/figures.py [--time]", file=sys.stderr)
        return 2
    data = yaml.safe_load(FIGURES.read_text())
    found = counts()
    for group, n in found.items():
        data["tests"][group]["collected"] = n
    if argv:
        data["tests"]["default"]["timed"] = timed_default_run()
    text = FIGURES.read_text()
    head = "".join(line for line in text.splitlines(True) if line.startswith("#"))
    FIGURES.write_text(head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    print(f"wrote {FIGURES.relative_to(ROOT)}: {found}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
