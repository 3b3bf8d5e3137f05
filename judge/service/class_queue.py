"""A class graded by the service's graders: ``judge batch FOLDER -p ID --queue redis://...``.

The batch hands each submission to the graders that ``judge service --grader-only --queue URL``
runs on any machine with the same problems, and writes its journal and reports as a local batch
does (``judge.grade.batch``: the batch takes the records ``Remote.grade`` yields). Both sides
live in ``judge.service.class_task`` (what a task and an answer hold, and the grader's
``answer``); this module is the batch's side, ``Remote``.

**What crosses Redis.** A grading task of the service's queue (``judge.service.queue``), mode
``batch``: the problem id, the source (its bytes as text, undecodable ones kept as surrogates)
and ``inputs``, JSON ``{"batch", "name", "label", "expect"}``: the batch's id, the file's name
and label (what the reports call it), and what the batch's grades depend on
(``journal.basis_parts``: digests of the spec and the reference, the judge's version and code,
the source gate and the sandbox). A grader checks every field (``job``) and grades only when
its own ``basis_parts`` are the same; otherwise it answers ``{"refused": its parts}`` without
grading. Its answer (``answer``) is plain JSON: the verdict, the JSON report, the text report
(``feedback``), Gradescope's ``results.json``, its basis and its name. The batch checks that
answer again (``class_task.fields``): a result that is not a grader's, or that another problem package
graded, is never recorded. A grader is a judge process: the verdict is its judge's, never a worker's.

**Nothing lost.** A grader claims a task before grading it and keeps a heartbeat
(``judge.service.grader``); the batch gives a claimed submission up after ``LEASE_S`` without a
heartbeat and enqueues it again as its next attempt, up to ``MAX_ATTEMPTS``, after which it is
recorded ``IE grader_lost`` (graded again by ``--resume``). A task that left the queue without
being claimed is enqueued again. Each submission's id is a digest of the journal's id, its entry
and its content, so a batch resumed after it was killed collects what the graders finished
meanwhile. While a batch runs, its key ``class:<batch>`` is set; a grader skips a task whose
batch has ended (the key is removed on the way out, with the batch's claims and results). The
class's tasks are served after the service's own submissions (``TURN``).

**Bounds.** Redis that cannot be reached, no sign of any grader (a claim, a heartbeat, a result,
the queue shrinking) for ``timeout`` seconds, and a grader with another problem package each stop the batch with an
error that says what to do, and which submissions are still outstanding; everything graded so
far is in the journal.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from judge.errors import JudgeError
from judge.service import queue as q
from judge.service import class_task
from judge.service.class_task import MODE, alive_key

#: A claimed submission without a heartbeat for this long goes back to the queue (seconds).
LEASE_S = 15.0
#: Attempts of one submission whose graders may be lost before it is recorded IE grader_lost.
MAX_ATTEMPTS = 3
#: How often the batch reads the graders' claims, heartbeats and results; how often it looks
#: for tasks that left the queue unclaimed (seconds).
POLL_S = 0.5
SWEEP_S = 10.0
#: The longest the batch waits for any sign of a grader, by default (seconds).
TIMEOUT_S = 300.0
#: A class's tasks are served after every round of the service's own submissions (the queue
#: serves lower turns first): students submitting to an API on the same Redis are not held
#: back by a class of a thousand.
TURN = 1 << 30



def shown_url(url: str) -> str:
    """``url`` without a password (a message may be pasted anywhere)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = (f"{parts.username}@" if parts.username else "") + host + \
        (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


def check_url(url: str) -> str:
    """``url`` when it names a Redis database (``redis://HOST:PORT/DB``, ``rediss://`` or
    ``unix://PATH``); JudgeError saying what is wrong otherwise."""
    why = ""
    try:
        parts = urlsplit(url)
        if parts.scheme in ("redis", "rediss"):
            if not parts.hostname:
                why = "no host"
            elif parts.port is None and parts.netloc.endswith(":"):
                why = "no port after the colon"
            elif parts.path not in ("", "/") and not parts.path[1:].isdigit():
                why = f"the database {parts.path[1:]!r} is not a number"
        elif parts.scheme == "unix":
            why = "" if parts.path else "no socket path"
        else:
            why = f"the scheme is {parts.scheme!r}, not redis" if parts.scheme else "no scheme"
    except ValueError as exc:  # a port that is no number, a bad IPv6 address
        why = str(exc)
    if why:
        raise JudgeError(f"--queue {shown_url(url) if '://' in url else url}: not a Redis URL "
                         f"({why}); expected redis://HOST:PORT/DB, such as "
                         f"redis://127.0.0.1:6379/0")
    return url


def sandbox_asked(option: str | None):
    """The ``judge.run.settings.Settings`` a class's graders must grade under: ``--sandbox``,
    else $JUDGE_SANDBOX, else bwrap, as the service's graders (``auto`` is refused, as there).
    Nothing is probed here: the graders run the submissions, not this machine."""
    from judge.run import sandbox as sandboxing
    from judge.run.settings import Settings

    mode = sandboxing.requested_mode(option, "bwrap")  # SandboxError: a JudgeError
    if mode == "auto":
        raise JudgeError("judge batch --queue does not take --sandbox auto (nor "
                         "$JUDGE_SANDBOX=auto): the graders grade under bwrap, or, where they "
                         "were started with --sandbox none, without it; say which")
    return Settings(mode)


def _with_timeouts(url: str) -> str:
    """``url`` with bounds on connecting and on each reply, unless it sets them: an unreachable
    host is an error in seconds, not minutes."""
    sep = "&" if "?" in url else "?"
    for name, value in (("socket_connect_timeout", 10), ("socket_timeout", 30)):
        if name + "=" not in url:
            url, sep = f"{url}{sep}{name}={value}", "&"
    return url


# -- the batch's side -----------------------------------------------------------------------

_WHAT = {"spec": "its problem spec differs", "reference": "its reference solution differs",
         "judge": "it runs another version of the judge", "code": "it runs other judge code",
         "source_gate": "its source gate is set otherwise",
         "sandbox": "it grades under another sandbox"}


def _differences(mine: dict, theirs) -> str:
    if not isinstance(theirs, dict):
        return "it did not say what it grades with"
    said = []
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            what = _WHAT.get(key, f"its {key} differs")
            if key == "sandbox":
                what += f" ({theirs.get(key)}; this batch asks for {mine.get(key)})"
            elif key == "judge":
                what += f" ({theirs.get(key)}; this batch runs {mine.get(key)})"
            said.append(what)
    return "; ".join(said)


@dataclasses.dataclass
class _Item:
    base: dict            # the record's start (batch._start)
    source: str
    name: str
    label: str
    attempt: int = 1
    grader: str | None = None   # who claimed the current attempt
    beat: object = None
    lease_until: float = 0.0
    missing: bool = False       # neither in the queue nor claimed at the last sweep


class Remote:
    """The graders behind ``url`` (``judge service --grader-only --queue URL``). ``timeout``:
    the longest to wait for any sign of a grader; ``say``: where warnings go (stderr)."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT_S, lease: float = LEASE_S,
                 say=None):
        import importlib.util

        absent = [m for m in ("huey", "redis") if importlib.util.find_spec(m) is None]
        if absent:
            raise JudgeError(f"judge batch --queue needs {' and '.join(absent)}, missing here; "
                             f"install the service extra: pip install 'jax-judge[service]'")
        self.url = check_url(url)
        self.shown = shown_url(url)
        self.timeout, self.lease = timeout, lease
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.queue = q.open_queue(_with_timeouts(url), Path("."))
        self.storage = self.queue.tasks.storage
        try:
            self.storage.conn.ping()
        except Exception as exc:  # noqa: BLE001 - redis-py's errors, OSError
            raise JudgeError(f"--queue {self.shown}: cannot reach Redis ({_short(exc)}); start "
                             f"it, or check the host, port and database") from None

    # -- reading and writing the queue's store ---------------------------------------------
    def _peek(self, keys: list[str]) -> dict:
        out = {}
        for start in range(0, len(keys), 500):
            for key, raw in self.storage.peek_many(keys[start:start + 500]).items():
                key = key.decode() if isinstance(key, bytes) else key
                try:
                    out[key] = self.queue.tasks.serializer.deserialize(raw)
                except (ValueError, TypeError):
                    out[key] = _Malformed()
        return out

    def _delete(self, keys: list[str]) -> None:
        for start in range(0, len(keys), 500):
            if keys[start:start + 500]:
                self.storage.conn.hdel(self.storage.result_key, *keys[start:start + 500])

    @staticmethod
    def _keys(sub_id: str, upto: int) -> list[str]:
        return [k(sub_id, a) for a in range(1, upto + 1)
                for k in (q.claim_key, q.beat_key, q.result_key)]

    def _enqueue(self, sub_id: str, item: _Item, problem_id: str, batch: str,
                 expect: dict) -> None:
        inputs = json.dumps({"batch": batch, "name": item.name, "label": item.label,
                             "expect": expect})
        self.queue.enqueue(sub_id, item.attempt, problem_id, item.source, MODE, turn=TURN,
                           inputs=inputs)
        item.grader, item.beat, item.missing = None, None, False

    # -- the class --------------------------------------------------------------------------
    def grade(self, problem, journal_id: str, how: dict, sent: list):
        """Hand every ``(record start, submission)`` of ``sent`` to the graders; yield each
        finished record, as graders finish them. JudgeError (after the records yielded so far)
        when Redis is lost, no grader answers, or a grader grades with another problem."""
        from judge.grade.journal import basis_parts

        if not sent:
            return
        batch = hashlib.sha256(b"judge batch\0" + journal_id.encode()).hexdigest()[:24]
        expect = basis_parts(problem, how)
        items: dict[str, _Item] = {}
        for base, submission in sent:
            digest = hashlib.sha256(f"{base['key']}\0{base['sha256']}".encode("utf-8",
                                    "surrogateescape")).hexdigest()[:24]
            items[f"class-{batch}-{digest}"] = _Item(
                base, submission.data.decode("utf-8", "surrogateescape"), submission.name,
                submission.label)
        self.queue.put(alive_key(batch), 1)
        try:
            yield from self._run(problem, batch, expect, items)
        finally:
            try:
                self._delete([alive_key(batch)] + [k for sub_id, item in items.items()
                                                   for k in self._keys(sub_id, item.attempt)])
            except Exception:  # noqa: BLE001 - Redis gone: graders find the keys stale anyway
                pass

    def _run(self, problem, batch: str, expect: dict, items: dict):
        outstanding = dict(items)
        self._start(problem.id, batch, expect, outstanding)
        last_sign = time.monotonic()
        next_sweep = last_sign + SWEEP_S
        failing_since = waiting = None
        while outstanding:
            now = time.monotonic()
            try:
                done, signs = self._poll(problem, batch, expect, outstanding, now)
                # graders busy with other work (an API's students, served first) are alive too
                was, waiting = waiting, self.queue.tasks.pending_count()
                signs = signs or (was is not None and waiting < was)
                if now >= next_sweep:
                    self._sweep(problem.id, batch, expect, outstanding)
                    next_sweep = now + SWEEP_S
                failing_since = None
            except JudgeError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis lost for a while: try again
                from judge.service.outage import is_outage

                if not is_outage(exc):
                    raise
                if failing_since is None:
                    failing_since = now
                    self.say(f"judge batch: lost Redis at {self.shown} ({_short(exc)}); "
                             f"trying again")
                if now - failing_since > self.timeout:
                    raise JudgeError(f"--queue {self.shown}: Redis has not answered for "
                                     f"{self.timeout:.0f} s ({_short(exc)}); "
                                     f"{_outstanding(outstanding)}") from None
                time.sleep(1.0)
                continue
            for record in done:
                yield record
            if signs:
                last_sign = now
            elif now - last_sign > self.timeout:
                raise JudgeError(self._silent(outstanding))
            time.sleep(POLL_S)

    def _start(self, problem_id: str, batch: str, expect: dict, outstanding: dict) -> None:
        """Enqueue every submission; one a resumed batch finds claimed by a grader is left to
        that grader (with a fresh lease), one found in the queue is left there."""
        claims = self._peek([q.claim_key(s, a) for s in outstanding
                             for a in range(1, MAX_ATTEMPTS + 1)])
        waiting = self._waiting(batch)
        now = time.monotonic()
        for sub_id, item in outstanding.items():
            found = [a for a in range(1, MAX_ATTEMPTS + 1) if q.claim_key(sub_id, a) in claims]
            queued = [a for s, a in waiting if s == sub_id and isinstance(a, int)]
            if found:
                item.attempt = max(found)
                item.grader = str(claims[q.claim_key(sub_id, item.attempt)])[:200]
                item.lease_until = now + self.lease
            elif queued:
                item.attempt = min(max(queued), MAX_ATTEMPTS)
            else:
                self._enqueue(sub_id, item, problem_id, batch, expect)

    def _waiting(self, batch: str) -> set:
        prefix = f"class-{batch}-"
        return {(task.args[0], task.args[1]) for task in self.queue.tasks.pending()
                if len(task.args) >= 2 and str(task.args[0]).startswith(prefix)}

    def _poll(self, problem, batch: str, expect: dict, outstanding: dict, now: float):
        """One look at the store: the results (recorded), the claims and the heartbeats (the
        leases). Return the finished records, and whether any grader showed a sign."""
        from judge.grade.batch import ungraded

        keys = []
        for sub_id, item in outstanding.items():
            keys += [q.result_key(sub_id, a) for a in range(1, item.attempt + 1)]
            keys.append(q.beat_key(sub_id, item.attempt) if item.grader else
                        q.claim_key(sub_id, item.attempt))
        seen = self._peek(keys)
        done, signs = [], False
        for sub_id, item in list(outstanding.items()):
            stored = next((seen[k] for a in range(item.attempt, 0, -1)
                           if (k := q.result_key(sub_id, a)) in seen), None)
            if stored is not None:
                signs = True
                record = self._recorded(problem, expect, sub_id, item, stored, batch)
                if record is not None:
                    del outstanding[sub_id]
                    self._delete(self._keys(sub_id, item.attempt))
                    done.append(record)
                continue
            if item.grader is None:
                claim = seen.get(q.claim_key(sub_id, item.attempt))
                if claim is not None:
                    item.grader, item.lease_until, signs = str(claim)[:200], now + self.lease, True
                continue
            beat = seen.get(q.beat_key(sub_id, item.attempt))
            if beat is not None and beat != item.beat:
                item.beat, item.lease_until, signs = beat, now + self.lease, True
            elif item.lease_until < now:
                if item.attempt >= MAX_ATTEMPTS:
                    del outstanding[sub_id]
                    done.append({**item.base, "verdict": "IE", "reason": "grader_lost",
                                 "message": f"not graded: the grader of each of {item.attempt} "
                                            f"attempts stopped answering (the judge's fault, "
                                            f"not the submission's)", **ungraded(problem)})
                    self._delete(self._keys(sub_id, item.attempt))
                    continue
                self.say(f"judge batch: grader {item.grader} stopped answering while grading "
                         f"{item.base['submission']}; it goes back to the queue "
                         f"(attempt {item.attempt + 1})")
                item.attempt += 1
                self._enqueue(sub_id, item, problem.id, batch, expect)
        return done, signs

    def _recorded(self, problem, expect: dict, sub_id: str, item: _Item, stored,
                  batch: str) -> dict | None:
        """The record of a stored answer; None (the submission graded again) when it is not a
        grader's answer; JudgeError when a grader grades with another problem package."""
        said = stored.get("grader") if isinstance(stored, dict) else None
        name = said if isinstance(said, str) else item.grader
        who = f"grader {name[:200]}" if name else "a grader"
        if isinstance(stored, dict) and "refused" in stored:
            why = stored.get("why") if isinstance(stored.get("why"), str) else ""
            raise JudgeError(
                f"{who} on {self.shown} does not grade {problem.id} as this batch does "
                f"({why or _differences(expect, stored.get('refused'))}): its results are "
                f"refused. Give every grader on this queue the same checkout of the judge and "
                f"its problems/ (or stop that one), then run the batch again with --resume; "
                f"{_outstanding({sub_id: item})}")
        if isinstance(stored, dict) and stored.get("basis") != expect:
            raise JudgeError(
                f"{who} on {self.shown} graded {item.base['submission']} with another "
                f"problem package ({_differences(expect, stored.get('basis'))}): its results are "
                f"refused. Give every grader on this queue the same checkout of the judge and "
                f"its problems/, then run the batch again with --resume")
        try:
            fields = class_task.fields(stored, problem.id)
        except ValueError as exc:
            if item.attempt >= MAX_ATTEMPTS:
                raise JudgeError(f"the results on {self.shown} for {item.base['submission']} are "
                                 f"not a grader's ({exc}), {item.attempt} times; refused") from None
            self.say(f"judge batch: the result on the queue for {item.base['submission']} is "
                     f"not a grader's ({exc}); refused, and graded again")
            self._delete(self._keys(sub_id, item.attempt))
            item.attempt += 1
            self._enqueue(sub_id, item, problem.id, batch, expect)
            return None
        return {**item.base, **fields}

    def _sweep(self, problem_id: str, batch: str, expect: dict, outstanding: dict) -> None:
        """Enqueue again a submission neither in the queue nor claimed at two sweeps in a row
        (a grader takes a task a moment before it claims it)."""
        waiting = self._waiting(batch)
        for sub_id, item in outstanding.items():
            if item.grader is not None or (sub_id, item.attempt) in waiting:
                item.missing = False
            elif item.missing:
                self._enqueue(sub_id, item, problem_id, batch, expect)
            else:
                item.missing = True

    def _silent(self, outstanding: dict) -> str:
        running = sorted(i.grader for i in outstanding.values() if i.grader)
        what = (f"the graders ({', '.join(sorted(set(running)))}) stopped answering"
                if running else "no grader took a submission")
        return (f"judge batch --queue: {what} for {self.timeout:.0f} s on the queue "
                f"{q.GRADING_QUEUE} at {self.shown}; start `judge service --grader-only "
                f"--queue {self.shown}` on a machine with the same problems (or allow longer: "
                f"--queue-timeout); {_outstanding(outstanding)}")


class _Malformed:
    """A stored value that is not JSON of the service (never decoded any other way)."""


def _outstanding(outstanding: dict, shown: int = 10) -> str:
    names = sorted(item.base["submission"] for item in outstanding.values())
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return (f"{len(names)} submission(s) still outstanding: {', '.join(names[:shown])}{more}; "
            f"those graded are in the journal: run the batch again with --resume")


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0][:200] if text else type(exc).__name__)
