"""Fairness of the grading service's queue: one token's burst against another token's single
submission.

    python benchmarks/service_fairness.py [--n 40] [--workers 2] [--mode submit|examples]
        [--problem fake_quant_ste] [--queue redis://...]

Starts `judge service` (SQLite queue unless --queue, its own grader with --workers W) with two
tokens. Token A sends N copies of an accepted submission at once; then token B sends one. Prints
how long B's submission waited from its POST to its verdict, against the time its own grading
took, and how many of A's submissions were finished before it (first come, first served would
put it behind all N). Every copy gets a line of its own, so no two sources are the same.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url: str, token: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        url + path, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=40, help="A's burst (at most 100)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mode", choices=("submit", "examples"), default="submit")
    parser.add_argument("--problem", default="fake_quant_ste")
    parser.add_argument("--queue", default=None)
    args = parser.parse_args()
    source = next((ROOT / "submissions" / args.problem / "accepted").glob("*.py")).read_text()
    a, b = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="judge-fairness-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        fd = os.open(data / "tokens", os.O_WRONLY | os.O_CREAT, 0o600)
        os.write(fd, f"{a}\n{b}\n".encode())
        os.close(fd)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "judge", "service", "--port", str(port), "--data",
                   str(data), "--workers", str(args.workers), "--rate-limit", str(args.n + 10)]
        if args.queue:
            command += ["--queue", args.queue]
        env = {k: v for k, v in os.environ.items() if k != "JUDGE_SERVICE_TOKEN"}
        log = open(Path(tmp) / "service.log", "w+")
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    urllib.request.urlopen(url + "/", timeout=5)
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        sys.exit(f"judge service did not start:\n{log.read()}")
                    time.sleep(0.3)

            def send(token: str, k: int) -> str:
                body = {"problem": args.problem, "source": source + f"\n# copy {k}\n",
                        "mode": args.mode}
                return call(url, token, "/api/v1/submissions", body)["id"]

            with ThreadPoolExecutor(max_workers=10) as pool:
                burst = list(pool.map(lambda k: send(a, k), range(args.n)))
            sent = time.monotonic()
            single = send(b, args.n)
            while True:
                state = call(url, b, f"/api/v1/submissions/{single}")
                if state["status"] == "done":
                    waited = time.monotonic() - sent
                    break
                time.sleep(0.2)
            finished = call(url, b, "/api/v1/submissions")["submissions"][0]["finished"]
            listed = call(url, a, f"/api/v1/submissions?limit={min(args.n, 100)}")
            before = sum(1 for r in listed["submissions"]
                         if r["finished"] is not None and r["finished"] < finished)
            own = state["result"]["time_s"]
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
            log.close()
    print(f"queue {args.queue or 'SQLite'}, {args.workers} grading worker(s), {args.n} "
          f"submissions from A then 1 from B, mode {args.mode}")
    print(f"B's submission: {waited:.1f} s from its POST to its verdict, its own grading "
          f"{own:.1f} s (ratio {waited / max(own, 1e-9):.1f}); {before} of A's {args.n} "
          f"finished before it (first come, first served: {args.n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
