"""What keeping workers forked ahead saves a run, side by side with a server that forks each
worker when its run comes (``JUDGE_WARM_AHEAD=off``), in one run.

    python benchmarks/fork_ahead.py [--runs 15] [--sandbox bwrap|none] [--gap 0.5]

Two warm servers (``judge.run.warm``), one keeping a worker forked ahead and one not, are
started side by side; then, in turn, each is asked for a worker (``spawn``, as the judge asks
for one) with a trivial submission and no cases, ``--gap`` seconds apart (time for the next
child ahead to get ready; 0: runs back to back, the child taken may still be setting up). For
each: the seconds from the ask to the worker's ``ready`` message (its backend made, its limits
set) and to its ``loaded`` message (the submission imported). Medians, and their ratio. Then the
memory of a child waiting ahead: the resident set, proportional set size (``Pss``: its pages
shared with the server counted in part) and private memory of its keeper and worker, where
this process can read them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge.run import sandbox as sandboxing  # noqa: E402
from judge.run import warm  # noqa: E402


def server(mode: str, ahead: bool) -> warm.WarmServer:
    os.environ["JUDGE_WARM_AHEAD"] = "on" if ahead else "off"
    started = warm.WarmServer(mode, sys.executable, None)
    if not started.wait_ready():
        raise SystemExit(f"the warm server did not start: {started.error}")
    return started


def one_run(srv: warm.WarmServer, mode: str, source: Path) -> tuple[float, float]:
    """(seconds to ``ready``, seconds to ``loaded``) of one worker."""
    read_fd, write_fd = os.pipe()
    submission = os.open(source, os.O_RDONLY)
    workdir = None if mode == "bwrap" else tempfile.mkdtemp(prefix="fork-ahead-")
    started = time.perf_counter()
    proc = srv.spawn(write_fd, submission, workdir, None)
    os.close(write_fd)
    os.close(submission)
    path = f"{sandboxing.WORKDIR if mode == 'bwrap' else workdir}/submission.py"
    proc.stdin.write(json.dumps({"submission": path, "entry_point": "f", "cases": [],
                                 "nonce": "n"}).encode() + b"\n")
    proc.stdin.close()
    times = []
    with os.fdopen(read_fd, "rb") as results:
        for line in results:
            kind = json.loads(line).get("type")
            if kind in ("ready", "loaded"):
                times.append(time.perf_counter() - started)
            if kind == "loaded":
                break
    proc.kill()
    proc.wait(30)
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    if len(times) != 2:
        raise SystemExit("a worker did not report ready and loaded")
    return times[0], times[1]


def memory(srv: warm.WarmServer) -> str:
    """The resident and proportional set sizes of the processes under ``srv`` (bubblewrap's,
    the server, a child waiting ahead: its keeper, its worker), in words."""
    from hostile import descendants

    time.sleep(1.0)  # the next child ahead ready
    found = []
    for pid in [srv._proc.pid, *descendants(srv._proc.pid)]:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        fields = {line.split(":")[0]: int(line.split()[1]) for line in rollup[1:] if "kB" in line}
        private = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
        found.append(f"{fields.get('Rss', 0) >> 10}/{fields.get('Pss', 0) >> 10}/{private >> 10}")
    return " + ".join(found) + " MiB (RSS/PSS/private, each process from the top)" if found \
        else "not readable here"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sandbox", choices=("bwrap", "none"),
                        default="bwrap" if sandboxing.probe() is None else "none")
    parser.add_argument("--gap", type=float, default=0.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "submission.py"
        source.write_text("def f():\n    return 0\n")
        servers = {"ahead": server(args.sandbox, True), "on demand": server(args.sandbox, False)}
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
        for name, srv in servers.items():  # each once first: the page cache, the first fork
            one_run(srv, args.sandbox, source)
        for _ in range(args.runs):
            for name, srv in servers.items():
                time.sleep(args.gap)
                times[name].append(one_run(srv, args.sandbox, source))
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; sandbox "
              f"{args.sandbox}; {args.runs} runs each, {args.gap} s apart; medians")
        print(f"   {'':<10}  {'to ready':>9}  {'to loaded':>9}")
        median = {name: [statistics.median(t[i] for t in got) for i in (0, 1)]
                  for name, got in times.items()}
        for name, (ready, loaded) in median.items():
            print(f"   {name:<10}  {ready * 1000:7.1f}ms  {loaded * 1000:7.1f}ms")
        ahead, demand = median["ahead"], median["on demand"]
        print(f"   ahead / on demand: {ahead[0] / demand[0]:.2f} to ready, "
              f"{ahead[1] / demand[1]:.2f} to loaded; saved {1000 * (demand[0] - ahead[0]):.1f} ms")
        print(f"   memory, ahead:     {memory(servers['ahead'])}")
        print(f"   memory, on demand: {memory(servers['on demand'])}")
        for srv in servers.values():
            srv.close()


if __name__ == "__main__":
    main()
