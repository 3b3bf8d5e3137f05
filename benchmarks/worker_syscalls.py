"""What each process of a `judge batch` asks of the kernel: system calls per process, by kind.

    python benchmarks/worker_syscalls.py FOLDER -p PROBLEM [-j N] [--keep DIR] [batch options]

Runs `judge batch` under ``strace -f -ff`` (one trace per thread), folds every thread into its
process, sorts the processes into kinds (the judge; the warm server; a keeper, which makes a
forked worker's namespaces; a worker, which runs a submission; bubblewrap; anything else) and
prints, for each kind, how many there were, the median number of system calls one made, and
the calls that make up most of it (median per process). Where a system call is slow (under
gVisor every one is served by the sandbox's kernel in user space), a worker's count is its fixed
cost; the count does not depend on how busy the machine is, unlike any time.

strace slows every call down: the batch's times and verdicts under it mean nothing (a case may
even pass its time limit). Nothing of the judge is changed. Needs ``strace`` on PATH.
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_CALL = re.compile(r"^([a-z_0-9]+)\(")
#: a new thread's id; in a PID namespace, strace's number for it too (``--decode-pids=pidns``:
#: "= 2 /* 303 in strace's PID NS */"), which names its trace file
_THREAD = re.compile(r"^clone3?\(.*CLONE_THREAD.*\)\s+=\s+(\d+)(?: /\* (\d+) in strace)?")


def trace(argv: list[str], folder: Path) -> int:
    """Run ``judge batch ARGV`` under strace, one trace file per thread in ``folder``; its exit
    status."""
    command = ["strace", "-f", "-ff", "-qq", "--decode-pids=pidns", "-o", str(folder / "t"),
               sys.executable, "-m", "judge", "batch", *argv]
    return subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL).returncode


def processes(folder: Path) -> dict[int, list[str]]:
    """Each process's trace lines (its threads' folded in), by process id."""
    lines = {int(p.name.split(".")[1]): p.read_text(errors="replace").splitlines()
             for p in folder.glob("t.*")}
    owner = {}
    for tid, text in lines.items():
        for line in text:
            found = _THREAD.match(line)
            if found:
                owner[int(found.group(2) or found.group(1))] = tid
    merged: dict[int, list[str]] = collections.defaultdict(list)
    for tid, text in lines.items():
        root = tid
        while root in owner:
            root = owner[root]
        merged[root].extend(text)
    return dict(merged)


def kind(lines: list[str]) -> str:
    text = "\n".join(lines)
    if re.search(r'^execve\("[^"]*", \[[^]]*"-m", "judge", "batch"', text, re.M):
        return "judge"
    # what a worker and a server write when they are ready; bubblewrap execs the server (or a
    # fresh worker) in the same process, so they are looked for first
    if re.search(r'^write\(\d+, "\{\\"type\\":\\"ready\\"', text, re.M):
        return "worker"
    if re.search(r'^(send|sendto|sendmsg|write)\(\d+, "\{\\"op\\": \\"ready\\"', text, re.M):
        return "warm server"
    if re.search(r'execve\("[^"]*bwrap"', text):
        return "bubblewrap"
    if "unshare(" in text:
        return "keeper"
    return "other"


def report(by_pid: dict[int, list[str]]) -> None:
    kinds: dict[str, list[collections.Counter]] = collections.defaultdict(list)
    for lines in by_pid.values():
        counts = collections.Counter(m.group(1) for line in lines if (m := _CALL.match(line)))
        kinds[kind(lines)].append(counts)
    for name in ("judge", "warm server", "keeper", "worker", "bubblewrap", "other"):
        rows = kinds.get(name)
        if not rows:
            continue
        totals = [sum(c.values()) for c in rows]
        calls = collections.Counter()
        for c in rows:
            calls.update(c)
        top = sorted(calls, key=calls.get, reverse=True)[:8]
        per = ", ".join(f"{call} {statistics.median(c.get(call, 0) for c in rows):.0f}" for call in top)
        print(f"{name}: {len(rows)} process(es), system calls each: median {statistics.median(totals):.0f} "
              f"(min {min(totals)}, max {max(totals)}); the most made, median each: {per}")


def main() -> None:
    argv = sys.argv[1:]
    if shutil.which("strace") is None:
        raise SystemExit("worker_syscalls: strace is not installed")
    keep = None
    if "--keep" in argv:
        i = argv.index("--keep")
        keep = Path(argv[i + 1])
        del argv[i:i + 2]
    if not any(a in argv for a in ("--journal",)):
        argv += ["--journal", os.path.join(tempfile.mkdtemp(prefix="syscalls-"), "journal")]
    folder = keep or Path(tempfile.mkdtemp(prefix="syscalls-trace-"))
    folder.mkdir(parents=True, exist_ok=True)
    code = trace(argv, folder)
    print(f"judge batch {' '.join(argv)}: exit status {code} (under strace; verdicts not meaningful)")
    report(processes(folder))
    if keep is None:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
