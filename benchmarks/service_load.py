"""Load on the grading service: N submissions of one class sent at once over HTTP, against
1. the embedded default: `judge service` with its SQLite queue and its own grader (--workers W);
2. Redis: a redis-server started here on a free port, `judge service --queue redis://... --workers 0`
   and two `judge service --grader-only` processes (each --grader-workers G, its own data folder,
   as on another machine);
3. `judge batch -j J` on the same N files (no HTTP, no queue).

    python benchmarks/service_load.py [--n 40] [--problem fake_quant_ste] [--class accepted]
        [--workers 2] [--grader-workers 1] [--jobs 2] [--only sqlite,redis,batch]

Every copy gets a line of its own (`# copy K`), so no two sources are the same. A submission's
latency runs from the start of its POST (for the batch: from the start of the batch) to the first
poll that sees it done (polls every --poll seconds; for the batch, the line its journal writes);
throughput is N over the time from the first POST to the last verdict. Prints one table.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JUDGE = [sys.executable, "-m", "judge"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sources(problem: str, klass: str, n: int) -> list[tuple[str, str]]:
    """N (name, source) pairs cycling through submissions/PROBLEM/CLASS/*.py, each made unique."""
    files = sorted((ROOT / "submissions" / problem / klass).glob("*.py"))
    if not files:
        sys.exit(f"service_load: no submissions in submissions/{problem}/{klass}/")
    out = []
    for k in range(n):
        f = files[k % len(files)]
        out.append((f"s{k:03d}_{f.name}", f.read_text() + f"\n# copy {k}\n"))
    return out


def wait_until(check, seconds: float, what: str, procs=()):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for p in procs:
            if p.poll() is not None:
                sys.exit(f"service_load: {what}: a process exited with {p.returncode}")
        if check():
            return
        time.sleep(0.25)
    sys.exit(f"service_load: {what} did not happen within {seconds} s")


def http(method: str, url: str, token: str, body=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def serving(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


class Procs:
    """Processes started here, each in its own session, stopped (the whole group) on exit."""

    def __init__(self):
        self.procs: list[subprocess.Popen] = []

    def start(self, command, log: Path, env=None) -> subprocess.Popen:
        out = open(log, "ab")
        p = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
        out.close()
        self.procs.append(p)
        return p

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.procs.clear()


def drive(base: str, token: str, problem: str, subs, poll: float) -> dict:
    """POST every source at once (one thread each), then poll until all are done."""
    sent: dict[str, float] = {}
    ids: dict[str, str] = {}
    errors: list[str] = []
    lock = threading.Lock()

    def post(name, source):
        t0 = time.monotonic()
        status, answer = http("POST", base + "/api/v1/submissions", token,
                              {"problem": problem, "source": source})
        with lock:
            if status != 202:
                errors.append(f"{name}: HTTP {status} {answer}")
            else:
                sent[name], ids[name] = t0, answer["id"]

    start = time.monotonic()
    threads = [threading.Thread(target=post, args=s) for s in subs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit("service_load: submissions refused:\n" + "\n".join(errors))
    done: dict[str, float] = {}
    verdicts: Counter = Counter()
    while len(done) < len(ids):
        for name, sub_id in ids.items():
            if name in done:
                continue
            status, answer = http("GET", f"{base}/api/v1/submissions/{sub_id}", token)
            if status != 200:
                sys.exit(f"service_load: GET {sub_id}: HTTP {status} {answer}")
            if answer["status"] == "done":
                done[name] = time.monotonic()
                verdicts[answer["result"]["verdict"]] += 1
        time.sleep(poll)
    return {"latencies": [done[k] - sent[k] for k in ids], "wall": max(done.values()) - start,
            "verdicts": verdicts}


def run_sqlite(args, subs, tmp: Path, token: str) -> dict:
    procs, port = Procs(), free_port()
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": token}
    api = procs.start(JUDGE + ["service", "--port", str(port), "--data", str(tmp / "sqlite"),
                               "--workers", str(args.workers), "--rate-limit", str(max(60, args.n))],
                      tmp / "sqlite.log", env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: serving(base), 120, "the SQLite service serving /", [api])
        return drive(base, token, args.problem, subs, args.poll)
    finally:
        procs.stop()


def run_redis(args, subs, tmp: Path, token: str) -> dict:
    redis = shutil.which("redis-server")
    if redis is None:
        sys.exit("service_load: redis-server is not installed (apt-get install redis-server), "
                 "or leave redis out with --only sqlite,batch")
    procs, rport, port = Procs(), free_port(), free_port()
    (tmp / "redis").mkdir()
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": token}
    url = f"redis://127.0.0.1:{rport}/0"
    try:
        r = procs.start([redis, "--port", str(rport), "--bind", "127.0.0.1", "--save", "",
                         "--appendonly", "no", "--dir", str(tmp / "redis")], tmp / "redis.log")
        wait_until(lambda: _redis_up(rport), 30, "redis-server answering", [r])
        api = procs.start(JUDGE + ["service", "--port", str(port), "--data", str(tmp / "api"),
                                   "--queue", url, "--workers", "0",
                                   "--rate-limit", str(max(60, args.n))], tmp / "api.log", env)
        graders = [procs.start(JUDGE + ["service", "--grader-only", "--queue", url,
                                        "--data", str(tmp / f"grader{i}"),
                                        "--workers", str(args.grader_workers)],
                               tmp / f"grader{i}.log") for i in (1, 2)]
        base = f"http://127.0.0.1:{port}"
        wait_until(lambda: serving(base), 120, "the Redis service serving /", [api, *graders])
        return drive(base, token, args.problem, subs, args.poll)
    finally:
        procs.stop()


def _redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def run_batch(args, subs, tmp: Path) -> dict:
    folder = tmp / "class"
    folder.mkdir()
    for name, source in subs:
        (folder / name).write_text(source)
    journal, report = tmp / "batch.journal", tmp / "batch.json"
    start = time.monotonic()
    proc = subprocess.Popen(JUDGE + ["batch", str(folder), "--problem", args.problem, "-j",
                                     str(args.jobs), "--format", "json", "--out", str(report),
                                     "--journal", str(journal)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(tmp / "batch.log", "wb"))
    finished: list[float] = []
    seen = 0
    while True:
        running = proc.poll() is None
        lines = journal.read_text().splitlines() if journal.exists() else []
        records = max(0, len(lines) - 1)  # the first line is the journal's header
        now = time.monotonic()
        finished += [now] * (records - seen)
        seen = max(seen, records)
        if not running:
            break
        time.sleep(args.poll / 2)
    if proc.returncode not in (0, 1):  # 1: some submission did not pass, as with a WA class
        sys.exit(f"service_load: judge batch exited with {proc.returncode}; see {tmp / 'batch.log'}")
    verdicts = Counter(_batch_verdicts(report))
    end = time.monotonic()
    finished += [end] * (len(subs) - len(finished))  # any the journal did not show before exit
    return {"latencies": [t - start for t in finished[:len(subs)]], "wall": end - start,
            "verdicts": verdicts}


def _batch_verdicts(report: Path) -> list[str]:
    try:
        data = json.loads(report.read_text())
    except (OSError, ValueError):
        return []
    rows = data.get("submissions", data.get("results", [])) if isinstance(data, dict) else data
    return [r.get("verdict", "?") for r in rows if isinstance(r, dict)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[int(q) - 1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=40, help="submissions per run (default 40)")
    ap.add_argument("--problem", default="fake_quant_ste")
    ap.add_argument("--class", dest="klass", default="accepted",
                    help="a folder of submissions/PROBLEM/ (default accepted)")
    ap.add_argument("--workers", type=int, default=2,
                    help="grading threads of the embedded service's grader (default 2)")
    ap.add_argument("--grader-workers", type=int, default=1,
                    help="grading threads of each of the two Redis graders (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="judge batch -j (default 2)")
    ap.add_argument("--poll", type=float, default=0.5, help="seconds between polls (default 0.5)")
    ap.add_argument("--only", default="sqlite,redis,batch",
                    help="comma-separated runs among sqlite, redis, batch (default all three)")
    args = ap.parse_args(argv)
    runs = [r.strip() for r in args.only.split(",") if r.strip()]
    unknown = set(runs) - {"sqlite", "redis", "batch"}
    if unknown:
        ap.error(f"--only: unknown run(s) {', '.join(sorted(unknown))}")
    subs = sources(args.problem, args.klass, args.n)
    token = secrets.token_urlsafe(24)
    labels = {"sqlite": f"service, SQLite queue, --workers {args.workers}",
              "redis": f"service, Redis, 2 graders x --workers {args.grader_workers}",
              "batch": f"judge batch -j {args.jobs}"}
    results = {}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="service-load-") as tmp:
        for run in runs:
            where = Path(tmp) / run
            where.mkdir()
            print(f"{labels[run]}: {args.n} submissions of {args.problem}/{args.klass} ...",
                  file=sys.stderr, flush=True)
            if run == "sqlite":
                results[run] = run_sqlite(args, subs, where, token)
            elif run == "redis":
                results[run] = run_redis(args, subs, where, token)
            else:
                results[run] = run_batch(args, subs, where)
    width = max(len(labels[r]) for r in runs)
    print(f"{args.n} submissions of {args.problem}/{args.klass}, {os.cpu_count()} CPUs, load "
          f"average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after")
    print(f"{'run':<{width}}  {'subs/s':>7}  {'p50 s':>7}  {'p95 s':>7}  {'wall s':>7}  verdicts")
    for run in runs:
        r = results[run]
        verdicts = ", ".join(f"{n} {v}" for v, n in sorted(r["verdicts"].items()))
        print(f"{labels[run]:<{width}}  {args.n / r['wall']:7.2f}  {pct(r['latencies'], 50):7.1f}  "
              f"{pct(r['latencies'], 95):7.1f}  {r['wall']:7.1f}  {verdicts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
