"""``judge service``: start the API (uvicorn) and its local graders, or a grader only.

``judge service [--host 127.0.0.1] [--port 8765] [--data DIR] [--queue URL] [--workers N]``
serves the API from this process and starts one grader process with N grading threads
(``--workers 0``: none here, graders run elsewhere). ``judge service --grader-only`` is that
grader process alone: on the same machine with the same ``--data``, or on another machine with
``--queue redis://...``. The local grader is restarted if it dies, and dies with the API.

The data folder (the database, the SQLite queue, the token file) is by default the user's data
directory (``default_data``), never the current folder: a checkout must not collect tokens and
students' sources. A ``--data`` inside a git work tree is refused unless
``--allow-data-in-git`` says so.

The service fails closed: it grades under the bwrap sandbox, and neither the API nor a grader
starts where the sandbox cannot (``service_sandbox``) unless ``--sandbox none`` (or
$JUDGE_SANDBOX=none) says to grade without it, which ``/api/v1/health`` and the page then show.
``auto`` is refused here: a service that falls back unsandboxed is what failing closed forbids.

uvicorn serves the API with the bounds of ``judge.service.connections``: a deadline for each
request's head (``--header-timeout``), a cap on connections (``--max-connections``) and the Host
names answered (``--allowed-host``). Both processes log one line per request and per grading event
on stderr, and the API a last line when it has stopped. ``judge service tokens add|list|revoke``
manages the token file (``judge.service.tokens``).
"""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.errors import JudgeError
from judge.service import missing

DEFAULT_PORT = 8765
#: The data folder under the user's data directory.
DATA_NAME = Path("jax-judge") / "service"


def default_data(environ=None) -> Path:
    """``$XDG_DATA_HOME/jax-judge/service``, else ``~/.local/share/jax-judge/service`` (the XDG
    base directory specification's default; a relative $XDG_DATA_HOME is ignored, as it says)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / DATA_NAME


def git_work_tree(path: Path) -> Path | None:
    """The top of the git work tree holding ``path`` (which may not exist yet), or None."""
    here = Path(os.path.abspath(path))
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def check_data(data: Path, allow_git: bool) -> None:
    """Refuse a data folder inside a git work tree unless asked: it would hold the token file
    and every student's source beside files that get committed."""
    top = git_work_tree(data)
    if top is not None and not allow_git:
        raise JudgeError(f"--data {data}: inside the git work tree {top}, where the token file "
                         f"and the students' sources could be committed; leave --data out (the "
                         f"default is {default_data()}), choose a folder outside it, or pass "
                         f"--allow-data-in-git")


def _require_extra() -> None:
    absent = missing()
    if absent:
        raise JudgeError("judge service needs the packages of the `service` extra, missing here: "
                         f"{', '.join(absent)}; install them with "
                         "`pip install 'jax-judge[service]'` (or `pip install -e '.[service]'` "
                         "in a checkout)")


def _die_with_parent() -> None:
    """In the grader child: SIGKILL when the API process goes (Linux), so a killed service
    leaves no grader behind."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def service_sandbox(option: str | None, grades: bool = True):
    """The sandbox settings of the service's graders: bwrap, unless ``option`` (else
    $JUDGE_SANDBOX) says ``none``; JudgeError where bwrap cannot start or ``auto`` is asked.
    ``grades``: False for an API without a grader of its own, which only says the mode."""
    from judge.run import sandbox as sandboxing
    from judge.run.settings import Settings

    mode = sandboxing.requested_mode(option, "bwrap")
    if mode == "auto":
        raise JudgeError("judge service does not take --sandbox auto (nor $JUDGE_SANDBOX=auto): "
                         "it grades under bwrap, or, where you say so, without a sandbox "
                         "(--sandbox none)")
    if not grades:
        return Settings(mode)
    settings = Settings.resolve(mode, default="bwrap")
    if settings.error is not None:
        raise JudgeError(f"judge service will not start without its sandbox ({settings.error}); "
                         f"make bwrap work here, or pass --sandbox none to grade submissions "
                         f"unsandboxed, which /api/v1/health and the page then show")
    return settings


def grader_command(args) -> list[str]:
    command = [sys.executable, "-m", "judge", "service", "--grader-only",
               "--data", str(args.data), "--workers", str(args.workers)]
    if args.allow_data_in_git:
        command.append("--allow-data-in-git")
    if args.queue:
        command += ["--queue", args.queue]
    if args.sandbox:
        command += ["--sandbox", args.sandbox]  # the mode the API resolved (bwrap or none)
    return command


class LocalGrader:
    """The grader process next to the API, started again whenever it stops."""

    def __init__(self, command: list[str]):
        self.command = command
        self.proc: subprocess.Popen | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command, preexec_fn=_die_with_parent)
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            code = self.proc.wait()
            if self._stop.is_set():
                return
            print(f"judge service: the grader process stopped (status {code}); starting it "
                  f"again", file=sys.stderr, flush=True)
            time.sleep(1.0)
            if not self._stop.is_set():
                self.proc = subprocess.Popen(self.command, preexec_fn=_die_with_parent)

    def stop(self) -> None:
        self._stop.set()
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # Huey finishes nothing new, then exits
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class _Stopped(Exception):
    """SIGINT or SIGTERM, raised again by uvicorn once it has stopped serving."""


def _stopped_by(signum, frame):
    raise _Stopped(signum)


def main(args) -> int:
    args.data = Path(args.data) if args.data is not None else default_data()
    check_data(args.data, args.allow_data_in_git)
    os.umask(0o077)  # the database and the queue hold every student's source: the owner's only
    if getattr(args, "service_command", None) == "tokens":
        from judge.service import tokens

        return tokens.main(args)
    _require_extra()
    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s judge service: %(message)s")
    logging.getLogger("judge.service").setLevel(logging.INFO)  # a line per request and grade
    args.data.mkdir(mode=0o700, parents=True, exist_ok=True)
    if args.grader_only and args.workers < 1:
        raise JudgeError("--grader-only needs --workers 1 or more")
    # refuses to start without a working sandbox (an API without graders: their mode, unprobed)
    sandbox = service_sandbox(args.sandbox, grades=args.grader_only or args.workers > 0)
    args.sandbox = sandbox.sandbox
    if args.grader_only:
        from judge.service.grader import Grader

        Grader(args.queue, args.data, sandbox).run(args.workers)
        return 0

    import uvicorn

    from judge.service import auth
    from judge.service.app import ServiceSettings, create_app
    from judge.service.limits import Limits

    announce = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    auth.load(args.data, announce)  # the first token, written and printed at the first start
    from judge.service import connections

    limits = Limits(rate=args.rate_limit, max_pending=args.max_pending, max_queue=args.max_queue,
                    request_rate=args.request_rate)
    hosts = tuple(args.allowed_host or connections.default_hosts(args.host))
    if "*" in hosts:
        hosts = ()
    app = create_app(ServiceSettings(data=args.data, queue=args.queue, limits=limits,
                                     sandbox=sandbox.sandbox, allowed_hosts=hosts))
    grader = LocalGrader(grader_command(args)) if args.workers > 0 else None
    if grader:
        grader.start()
    announce(f"judge service: http://{args.host}:{args.port}/ (data in {args.data}, queue "
             f"{args.queue or 'SQLite in the data folder'}, {args.workers} local grading "
             f"worker(s), sandbox {sandbox.sandbox}); the token file is read again whenever it "
             f"changes")
    # uvicorn stops gracefully on SIGINT or SIGTERM, then raises the signal again with this
    # process's previous handler: ours ends the run here, so the grader is stopped and the
    # last line said, rather than the process ending inside uvicorn
    signal.signal(signal.SIGTERM, _stopped_by)
    signal.signal(signal.SIGINT, _stopped_by)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    http=connections.with_header_timeout(args.header_timeout),
                    limit_concurrency=args.max_connections,
                    timeout_keep_alive=connections.KEEP_ALIVE_S)
    except _Stopped:
        pass
    finally:
        if grader:
            grader.stop()
        announce("judge service: stopped")
    return 0


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a number (0 or more), got {text!r}")
    return int(text)


def add_parser(sub, add_sandbox, positive) -> None:
    """The ``service`` subcommand's arguments (``judge.cli`` calls this)."""
    sv = sub.add_parser("service", help="the grading service: an HTTP API and its graders")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    data_help = ("the database, the SQLite queue and the token file (default "
                 f"$XDG_DATA_HOME/{DATA_NAME}, or ~/.local/share/{DATA_NAME})")
    sv.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    sv.add_argument("--allow-data-in-git", action="store_true",
                    help="accept a --data folder inside a git work tree (refused by default: "
                         "it holds the tokens and every student's source)")
    sv.add_argument("--queue", metavar="URL", default=None,
                    help="redis://HOST:PORT/DB: a Redis queue that graders on other machines "
                         "share (default: SQLite in --data, this machine only)")
    sv.add_argument("--workers", type=_count, default=2, metavar="N",
                    help="submissions graded at a time by this machine's grader (default 2; "
                         "0: no grader here)")
    sv.add_argument("--grader-only", action="store_true",
                    help="run only a grader: no API (another machine with --queue redis://..., "
                         "or more graders here)")
    sv.add_argument("--rate-limit", type=positive, default=60, metavar="N",
                    help="submissions a minute per token (default 60)")
    sv.add_argument("--max-pending", type=positive, default=100, metavar="N",
                    help="unfinished submissions per token (default 100)")
    sv.add_argument("--max-queue", type=positive, default=1000, metavar="N",
                    help="unfinished submissions in all (default 1000)")
    sv.add_argument("--request-rate", type=positive, default=600, metavar="N",
                    help="requests a minute per token, reads included (default 600)")
    sv.add_argument("--max-connections", type=positive, default=200, metavar="N",
                    help="connections served at once; past them a request is answered 503 "
                         "(default 200)")
    sv.add_argument("--header-timeout", type=positive, default=10, metavar="SECONDS",
                    help="a connection whose request line and headers take longer is closed "
                         "(default 10)")
    sv.add_argument("--allowed-host", action="append", metavar="NAME",
                    help="a Host name the service answers to (repeat for more; *.example.org "
                         "for its subdomains; * for any); default: localhost, 127.0.0.1 and ::1 "
                         "when --host is a loopback address, else any")
    add_sandbox(sv, "bwrap (the default, else $JUDGE_SANDBOX): the service will not start "
                    "where it cannot; none grades without a sandbox, which /api/v1/health and "
                    "the page then show (auto is refused)")
    sv.set_defaults(func=main)
    from judge.service import tokens

    tokens.add_parser(sv, data_help)
