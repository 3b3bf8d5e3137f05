"""The result cache of `judge check`: a submission's worker runs, kept and replayed.

What a worker reports depends on the request (case inputs, never expected outputs:
``judge.grade.request``), the submission's content, the sandbox, the judge's own code and the
installed JAX; not on the expected outputs, which only the judge reads. So when an author edits
an expected output (or nothing at all), `judge check` can decide every verdict again, against
today's expected outputs and rules, from the runs it stored before, and starts no worker.

**What is stored.** Per submission and set of cases, one JSON file: the result lines the
collector accepted from the main run and from the rules' trace run (``judge.run.collect``), the
random draws those runs were made with (each case's backward-rule factor, the traces the rules
planned: ``judge.grade.traces``), the case times the judge measured and how the worker ended.
Never a pickle: a replay decodes the lines again through ``judge.run.boundary`` and
``collect.accept``, exactly as they were read the first time. The reference's outputs are
stored as the protocol's arrays (``protocol.encode_array``).

**What is not.** Only a run that ended cleanly is stored: ``done`` reported, no limit hit (time,
memory, output, tasks, the whole run's wall clock), no tampering, no protocol error, no signal,
no case that took more than half its time limit (a verdict near the limit is measured again,
never replayed), no ``MemoryError``. Anything else is run again next time.

**The key** (``basis``): a digest of the request without its random draws, the submission's
content, the problem's spec without its cases (their inputs are in the request), its limits and
the run's timeouts, the sandbox mode and Python, the judge's version and a digest of its code
(``journal.judge_code``), the installed JAX, NumPy and ml_dtypes, and the environment a
worker inherits. A file whose key, format or MAC does not
match, or that cannot be read or replayed, is a miss, never an error.

**Where.** ``<cache>/check-results/<problem id>/<key>.json`` (``<cache>`` is ``judge.run.cache.root``:
``$JUDGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/jax-judge``, else ``~/.cache/jax-judge``), written
atomically (``judge.atomic``) and authenticated with the judge's key (``journal.key``): a file
this judge did not write is not replayed. At most ``KEEP`` files per problem; the oldest go.
``judge check --no-cache`` (or ``JUDGE_RESULT_CACHE=off``) neither reads nor writes it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import json
import logging
import os
import threading
from pathlib import Path

import numpy as np

from judge import __version__
from judge.grade import traces
from judge.run import boundary, cache, collect
from judge.run import sandbox as sandboxing
from judge.run.supervisor import WorkerRun
from judge.problem.model import DEFAULT_LIMITS
from judge.worker import protocol

LOG = logging.getLogger("judge.grade.result_cache")

FORMAT = 1
#: Files kept per problem; storing one more removes the oldest.
KEEP = 400
#: Bytes a stored file may have; a larger one is not read.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: A run with a case that took more than this fraction of its time limit is not stored.
NEAR_LIMIT = 0.5
ENV = "JUDGE_RESULT_CACHE"


def enabled(flag: bool | None = None) -> bool:
    """``flag`` if given, else on unless ``$JUDGE_RESULT_CACHE`` is off."""
    if flag is not None:
        return flag
    return os.environ.get(ENV, "on").strip().lower() not in ("off", "0", "no", "false")


def folder() -> Path:
    return cache.root() / "check-results"


@functools.cache
def _judge_code() -> str:
    from judge.grade.journal import judge_code as digest

    return digest()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _problem_config(problem) -> object:
    """What the runs depend on in the spec besides the cases' inputs: the spec's data without its
    cases, or, for a problem not read from a spec, its model without the cases."""
    raw = getattr(problem, "raw", None)
    if raw:
        return {k: v for k, v in raw.items() if k not in ("examples", "hidden")}
    return {f.name: repr(getattr(problem, f.name)) for f in dataclasses.fields(problem)
            if f.name not in ("cases", "raw", "path", "reference")}


def _without_draws(request: dict) -> dict:
    return {**{k: v for k, v in request.items() if k != "submission"},
            "cases": [{k: v for k, v in c.items() if k != "factor"} for c in request["cases"]]}


@functools.cache
def _versions() -> dict:
    """The installed versions the worker's results depend on besides JAX's (NumPy's evaluator,
    the dtypes), and the Python running the judge."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    found = {"python": platform.python_version()}
    for name in ("numpy", "ml_dtypes"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def basis(kind: str, problem, request: dict, content: bytes, settings, timeouts: dict) -> str:
    parts = {"format": FORMAT, "kind": kind, "judge": __version__, "code": _judge_code(),
             "jax": cache.jax_version(), "versions": _versions(), "sandbox": settings.sandbox, "python": settings.python,
             "problem": _problem_config(problem), "limits": {**DEFAULT_LIMITS, **problem.limits},
             "timeouts": timeouts, "request": _without_draws(request), "content": _digest(content),
             "env": {k: os.environ.get(k) for k in sandboxing.ENV_ALLOWLIST}}
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=repr)
    return _digest(text.encode())


# -- what may be stored -------------------------------------------------------------------------

def clean(run: WorkerRun | None, case_limit: float) -> bool:
    """Did ``run`` end so that replaying it gives the verdicts a new run would? (None: there
    was no run, which is as clean as can be.)"""
    if run is None:
        return True
    if (run.accepted is None or run.ready is None or not run.done or run.timed_out
            or run.protocol_error or run.tampered or run.halt is not None or run.output_exceeded
            or run.signal is not None or run.returncode != 0 or run.lingered
            or run.tasks_exceeded_at is not None):
        return False
    if any(t is None or t > NEAR_LIMIT * case_limit for t in run.case_times.values()):
        return False
    for report in run.cases.values():
        error = report.error
        if error is not None and (error.type == "MemoryError" or "can't start new thread"
                                  in error.message):
            return False
    return set(run.cases) == set(run.sent) or (run.loaded is not None and not run.loaded.ok)


def _run_data(run: WorkerRun) -> dict:
    return {"nonce": run.nonce, "lines": [line.decode("utf-8") for line in run.accepted],
            "case_times": {str(i): t for i, t in run.case_times.items()},
            "stdout": run.stdout, "stderr": run.stderr, "returncode": run.returncode,
            "sandbox": run.sandbox, "task_bound": run.task_bound, "wall_s": run.wall_s,
            "cpu_s": run.cpu_s}


def _replay(data: dict, request: dict, limits: dict, decide=None) -> WorkerRun:
    """The stored run, its lines decoded again as the collector decoded them, each program
    the worker asked about answered again by ``decide`` (today's rules: a case skipped then but
    not refused now, or evaluated then but refused now, breaks the protocol). Raises
    ProtocolError, KeyError, TypeError or ValueError on anything that does not fit."""
    run = WorkerRun(sandbox=str(data["sandbox"]), limits={**DEFAULT_LIMITS, **(limits or {})},
                    nonce=str(data["nonce"]), expected=boundary.Expected.of(request),
                    decide=decide)
    run.sent = [c["index"] for c in request["cases"]]
    run.total = len(request["cases"])
    for text in data["lines"]:
        line = text.encode("utf-8")
        run.channel_bytes += len(line) + 1
        collect.accept(run, boundary.decode(line, run.nonce, run.expected), 0.0)
    times = {int(i): float(t) for i, t in data["case_times"].items()}
    if not run.done or set(times) != set(run.cases):
        raise ValueError("a stored run that did not end, or whose case times do not fit")
    run.case_times = times
    run.stdout = boundary.escape(str(data["stdout"]), multiline=True)
    run.stderr = boundary.escape(str(data["stderr"]), multiline=True)
    run.returncode = int(data["returncode"])
    run.task_bound = data["task_bound"] if data["task_bound"] in ("cgroup", "rlimit") else None
    run.wall_s = float(data["wall_s"])
    run.cpu_s = None if data["cpu_s"] is None else float(data["cpu_s"])
    return run


@dataclasses.dataclass
class Replayed:
    request: dict          # the request as it was sent (its random draws included)
    wanted: list           # the traces the rules planned then (``traces.Wanted``)
    run: WorkerRun
    trace_run: WorkerRun | None


class ResultCache:
    """One command's use of the cache (``hits``, ``stored``: what it did, for reports)."""

    def __init__(self, where: Path | None = None, secret: bytes | None = None):
        self.where = Path(where) if where is not None else folder()
        self._secret = secret
        self._lock = threading.Lock()
        self.hits = self.misses = self.stored = 0  # submissions' runs
        self.reference_hits = 0
        self.trace_hits = 0  # trace runs at the corners of the dims

    # -- files --

    def _key(self) -> bytes | None:
        if self._secret is None:
            from judge.grade import journal
            from judge.errors import JudgeError

            try:
                self._secret = journal.key()
            except JudgeError as exc:
                LOG.warning("result cache off: %s", exc)
                self._secret = b""
        return self._secret or None

    def _mac(self, secret: bytes, entry: dict) -> str:
        body = json.dumps({k: v for k, v in entry.items() if k != "mac"}, sort_keys=True,
                          separators=(",", ":"))
        return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()

    def _path(self, problem_id: str, key: str) -> Path:
        return self.where / problem_id / f"{key}.json"

    def _read(self, problem_id: str, key: str) -> dict | None:
        secret = self._key()
        if secret is None:
            return None
        path = self._path(problem_id, key)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                return None
            entry = json.loads(data.decode("utf-8"))
            if (not isinstance(entry, dict) or entry.get("format") != FORMAT
                    or entry.get("basis") != key or not isinstance(entry.get("mac"), str)
                    or not hmac.compare_digest(self._mac(secret, entry), entry["mac"])):
                return None
            return entry
        except FileNotFoundError:
            return None
        except (OSError, ValueError, UnicodeDecodeError, RecursionError) as exc:
            LOG.info("result cache: %s not read (%s)", path, exc)
            return None

    def _write(self, problem_id: str, key: str, entry: dict) -> None:
        from judge import atomic
        from judge.errors import JudgeError

        secret = self._key()
        if secret is None:
            return
        entry = {"format": FORMAT, "basis": key, **entry}
        entry["mac"] = self._mac(secret, entry)
        path = self._path(problem_id, key)
        try:
            text = json.dumps(entry, separators=(",", ":"))
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic.write_text(path, text, durable=False)  # a lost or torn entry is a miss (its MAC)
            with self._lock:
                self.stored += 1
            self._prune(path.parent)
        except (OSError, JudgeError, TypeError, ValueError) as exc:
            LOG.info("result cache: %s not written (%s)", path, exc)

    def _prune(self, where: Path) -> None:
        try:
            files = [(p.stat().st_mtime, p) for p in where.glob("*.json")]
        except OSError:
            return
        for _, p in sorted(files)[:max(0, len(files) - KEEP)]:
            try:
                p.unlink()
            except OSError:
                pass

    def _count(self, hit: bool, reference: bool = False) -> None:
        with self._lock:
            if reference:
                self.reference_hits += hit
            elif hit:
                self.hits += 1
            else:
                self.misses += 1

    # -- a submission's runs --

    def find(self, problem, request: dict, content: bytes, settings, timeouts: dict,
             trace_timeout: float, decide=None) -> Replayed | None:
        """The stored runs of ``content`` on ``request``'s cases, replayed (None: a miss), each
        stored question answered again by ``decide`` (``WorkerRun.decide``)."""
        key = basis("grade", problem, request, content, settings, timeouts)
        entry = self._read(problem.id, key)
        found = None
        if entry is not None:
            try:
                found = self._replayed(problem, request, entry, timeouts, trace_timeout, decide)
            except (protocol.ProtocolError, KeyError, TypeError, ValueError, AttributeError,
                    IndexError) as exc:
                LOG.info("result cache: a stored run of %s could not be replayed (%s)",
                         problem.id, exc)
        self._count(found is not None)
        return found

    def _replayed(self, problem, request, entry, timeouts, trace_timeout, decide=None) -> Replayed:
        from judge.grade import traces

        factors = {int(i): float(f) for i, f in entry["factors"].items()}
        if set(factors) != {c["index"] for c in request["cases"]}:
            raise ValueError("factors of other cases")
        request = {**request, "cases": [{**c, "factor": factors[c["index"]]}
                                        for c in request["cases"]]}
        wanted = traces.wanted_from(entry["wanted"])
        decide = getattr(decide, "planned_with", lambda _: decide)(wanted)  # with the draws then
        if entry.get("folded") is True:  # the traces and the cases in one worker (``traces.fold``)
            folded = traces.fold(request, traces.request(problem, request, wanted))
            if folded is None:
                raise ValueError("a folded run of a request that is not folded")
            run = _replay(entry["run"], folded, problem.limits, decide)
            if not clean(_with_lines(run), timeouts["case_timeout"]):
                raise ValueError("a stored run that is not clean")
            return Replayed(request, wanted, run, run)
        run = _replay(entry["run"], request, problem.limits, decide)
        if not clean(_with_lines(run), timeouts["case_timeout"]):
            raise ValueError("a stored run that is not clean")
        trace_run = None
        if wanted:
            tracing = traces.request(problem, request, wanted)
            trace_run = _replay(entry["trace"], tracing, problem.limits)
            if not clean(_with_lines(trace_run), trace_timeout):
                raise ValueError("a stored trace run that is not clean")
        elif entry.get("trace") is not None:
            raise ValueError("a trace run without traces")
        return Replayed(request, wanted, run, trace_run)

    def store(self, problem, request: dict, content: bytes, settings, timeouts: dict,
              wanted: list, run: WorkerRun, trace_run: WorkerRun | None,
              trace_timeout: float, folded: bool = False) -> bool:
        """Keep the runs of ``content`` if they ended cleanly (``clean``); True if stored.
        ``folded``: ``run`` traced the rules' programs too (``traces.fold``; ``trace_run`` is
        ``run``), and is stored once."""
        if not clean(run, timeouts["case_timeout"]) or bool(wanted) != (trace_run is not None):
            return False
        if (trace_run is run) != folded or not (folded or clean(trace_run, trace_timeout)):
            return False
        try:
            entry = {"problem": problem.id, "kind": "grade",
                     "factors": {str(c["index"]): c["factor"] for c in request["cases"]},
                     "wanted": traces.wanted_data(wanted),
                     "run": _run_data(run),
                     "trace": _run_data(trace_run) if trace_run is not None and not folded else None,
                     **({"folded": True} if folded else {})}
            if not traces.same_wanted(traces.wanted_from(entry["wanted"]), wanted):
                return False  # a trace that JSON cannot carry exactly: not stored
        except (UnicodeDecodeError, TypeError, ValueError, protocol.ProtocolError) as exc:
            LOG.info("result cache: runs of %s not stored (%s)", problem.id, exc)
            return False
        self._write(problem.id, basis("grade", problem, request, content, settings, timeouts),
                    entry)
        return True

    # -- a submission traced at the corners of the dims (``judge.grade.corners``) --

    def find_traces(self, problem, request: dict, content: bytes, settings,
                    trace_timeout: float) -> WorkerRun | None:
        """The stored trace run of ``content`` on ``request`` (traces only), replayed; None on a
        miss. Counted apart from the grades' runs (``trace_hits``)."""
        key = basis("traces", problem, request, content, settings, {"trace": trace_timeout})
        entry = self._read(problem.id, key)
        run = None
        if entry is not None:
            try:
                run = _with_lines(_replay(entry["run"], request, problem.limits))
                if not clean(run, trace_timeout):
                    run = None
            except (protocol.ProtocolError, KeyError, TypeError, ValueError, AttributeError,
                    IndexError) as exc:
                LOG.info("result cache: a stored trace run of %s could not be replayed (%s)",
                         problem.id, exc)
                run = None
        with self._lock:
            self.trace_hits += run is not None
        return run

    def store_traces(self, problem, request: dict, content: bytes, settings, trace_timeout: float,
                     run: WorkerRun) -> bool:
        """Keep a trace run of ``content`` if it ended cleanly; True if stored."""
        if not clean(run, trace_timeout):
            return False
        try:
            entry = {"problem": problem.id, "kind": "traces", "run": _run_data(run)}
        except (UnicodeDecodeError, TypeError, ValueError) as exc:
            LOG.info("result cache: a trace run of %s not stored (%s)", problem.id, exc)
            return False
        self._write(problem.id, basis("traces", problem, request, content, settings,
                                      {"trace": trace_timeout}), entry)
        return True

    # -- the reference's outputs --

    def find_reference(self, problem, request: dict, settings, timeouts: dict) -> dict | None:
        key = basis("reference", problem, request, _content(problem.reference), settings, timeouts)
        entry = self._read(problem.id, key)
        found = None
        if entry is not None:
            try:
                found = {int(i): {str(name): protocol.decode_array(value)
                                  for name, value in fields.items()}
                         for i, fields in entry["outputs"].items()}
                if set(found) != {c["index"] for c in request["cases"]}:
                    found = None
            except (protocol.ProtocolError, KeyError, TypeError, ValueError, AttributeError):
                found = None
        self._count(found is not None, reference=True)
        return found

    def store_reference(self, problem, request: dict, settings, timeouts: dict,
                        outputs: dict) -> bool:
        if not all(isinstance(v, np.ndarray) for fields in outputs.values()
                   for v in fields.values()):
            return False
        try:
            data = {str(i): {name: protocol.encode_array(v) for name, v in fields.items()}
                    for i, fields in outputs.items()}
        except protocol.ProtocolError:
            return False
        self._write(problem.id, basis("reference", problem, request, _content(problem.reference),
                                      settings, timeouts),
                    {"problem": problem.id, "kind": "reference", "outputs": data})
        return True


def _with_lines(run: WorkerRun) -> WorkerRun:
    """A replayed run, marked as recorded so ``clean`` judges it like a fresh one."""
    run.accepted = []
    return run


def _content(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""
