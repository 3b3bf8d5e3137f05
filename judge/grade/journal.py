"""The batch journal: the judge's own record of every finished grade, so a batch can resume.

One JSON object per line, appended, flushed and synced as each grade finishes; a torn last line
(an interrupted write) is ignored on reading and its grade done again.

**Where.** By default in the judge's state folder, ``<cache>/journals/`` (``<cache>`` is
``$JUDGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/jax-judge``, else ``~/.cache/jax-judge``), named
after the problem and a digest of the class folder's resolved path and the report's
(``default_path``), never in the class folder, where a student could have put one.

**Whose.** Every line carries ``mac``, an HMAC-SHA256 of the journal's random ``id`` (in its
header) and the line's other fields, under a key the judge keeps in ``<cache>/journals/key``
(32 random bytes, mode 0600, made on first use). A journal with a line that does not check out
was not written by this judge (or was edited), and resuming it is refused; a line copied from
another journal fails too, since the ``id`` differs.

**What the grades depend on.** The header records ``how`` (whether the source gate was on, the
sandbox) and the ``basis``: digests of the spec and the reference, the judge's version and a
digest of its own code, with ``how``. Every record repeats both. Resuming with the gate set the
other way or in another sandbox is refused (a class would be judged by two standards); a record
whose ``basis`` differs from today's (an edited hidden case, a new reference, another judge) is
not reused: that submission is graded again.

**Starting over.** ``restart`` replaces the journal with a new one in one rename (``_start_over``):
the old one, whatever it holds, stays whole until the new one is in place.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
import threading
from pathlib import Path

from judge import __version__, gate
from judge.errors import JudgeError
from judge.run import cache

VERSION = 3  # 3: authenticated lines (mac), a key per entry, the basis of every grade
KEY_BYTES = 32

#: How a batch is graded, as the journal records it: (what it is, its option, how to show it).
_SWITCHES = {"source_gate": ("the source gate", "--source-gate", gate.setting),
             "sandbox": ("the sandbox", "--sandbox", str)}


def state_dir() -> Path:
    return cache.root() / "journals"


def default_path(folder: Path, problem_id: str, report: Path) -> Path:
    """Where the journal of grading ``folder`` for ``problem_id`` into ``report`` lives."""
    named = b"\0".join(os.fsencode(p) for p in (Path(folder).resolve(), Path(report).resolve()))
    digest = hashlib.sha256(problem_id.encode() + b"\0" + named).hexdigest()[:20]
    return state_dir() / f"{problem_id}-{digest}.jsonl"


def judge_code() -> str:
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def basis_parts(problem, how: dict, code: str | None = None) -> dict:
    """What a grade of ``problem`` depends on besides the submission, part by part: digests of
    the spec and the reference, the judge's version and a digest of its code (``code``: that
    digest when known already), and ``how``. A batch over the service's graders compares them
    with each grader's (``judge.service.class_queue``)."""
    return {"spec": hashlib.sha256(Path(problem.path).read_bytes()).hexdigest(),
            "reference": hashlib.sha256(Path(problem.reference).read_bytes()).hexdigest()
            if Path(problem.reference).is_file() else "",
            "judge": __version__, "code": judge_code() if code is None else code, **how}


def basis(problem, how: dict) -> str:
    """A digest of everything a grade of ``problem`` depends on besides the submission."""
    parts = basis_parts(problem, how)
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def key(folder: Path | None = None) -> bytes:
    """The judge's journal key, made on first use; JudgeError if the file is not one only this
    user can read."""
    folder = Path(folder) if folder is not None else state_dir()
    path = folder / "key"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists() and not path.is_symlink():
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key.")  # mode 0600
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(secrets.token_bytes(KEY_BYTES))
                    f.flush()
                    os.fsync(f.fileno())
                with contextlib.suppress(FileExistsError):  # another judge made it first
                    os.link(tmp, path)
            finally:
                os.unlink(tmp)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise JudgeError(f"{path}: cannot make or read the judge's journal key "
                         f"({exc.strerror or exc}); set JUDGE_CACHE_DIR to a folder of yours") from None
    try:
        st = os.fstat(fd)
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077
            or len(data) != KEY_BYTES):
        raise JudgeError(f"{path}: the judge's journal key must be a file of {KEY_BYTES} bytes "
                         f"that only you can read (mode 0600); remove it and the judge makes a "
                         f"new one (journals made with the old one can then not be resumed)")
    return data


def _canonical(record: dict) -> bytes:
    return json.dumps({k: v for k, v in record.items() if k != "mac"}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True).encode("ascii")


def sign(secret: bytes, journal_id: str, record: dict) -> dict:
    """``record`` with its ``mac``."""
    mac = hmac.new(secret, journal_id.encode() + b"\n" + _canonical(record), hashlib.sha256)
    return {**record, "mac": mac.hexdigest()}


def authentic(secret: bytes, journal_id: str, record: dict) -> bool:
    mac = record.get("mac")
    return isinstance(mac, str) and hmac.compare_digest(sign(secret, journal_id, record)["mac"], mac)


class Journal:
    """Append-only JSON lines, each signed (see the module's docstring).

    ``how`` says how the submissions are graded (``source_gate``: bool, ``sandbox``: the mode);
    ``basis`` is ``basis(problem, how)``; ``secret`` the key (default: ``key()``)."""

    def __init__(self, path: Path, problem: str, resume: bool, how: dict | None = None,
                 basis: str = "", secret: bytes | None = None, restart: bool = False):
        self.path = Path(path)
        self.how = dict(how or {"source_gate": True})
        self.basis = basis
        self.secret = key() if secret is None else secret
        self.records: dict[str, dict] = {}
        self.id = ""
        self._lock = threading.Lock()
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if restart:
            self._start_over(problem)
        elif self.path.exists() or self.path.is_symlink():
            if not resume:
                raise JudgeError(f"{self.path}: a batch journal already exists; pass --resume to "
                                 f"continue it, or --restart to grade the class again from the "
                                 f"start")
            self._read(problem)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        self._file = os.fdopen(fd, "a", encoding="utf-8")
        if not self.id:
            self.id = secrets.token_hex(16)
            self._write(self._header(problem))

    def _header(self, problem: str) -> dict:
        return {"journal": VERSION, "id": self.id, "problem": problem, **self.how,
                "basis": self.basis}

    def _start_over(self, problem: str) -> None:
        """Replace whatever is at ``path`` (a journal, a damaged one, a link: never followed)
        with a new journal holding only its header, in one rename: an interruption leaves the
        old journal or the new one."""
        self.id = secrets.token_hex(16)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.",
                                   suffix=".new")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(sign(self.secret, self.id, self._header(problem)),
                                   separators=(",", ":")) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        with contextlib.suppress(OSError):  # the rename itself durable
            dir_fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)

    def _damaged(self, line: int, why: str) -> JudgeError:
        return JudgeError(f"{self.path}: line {line} {why}; the journal is damaged or not this "
                          f"judge's own: pass --restart to grade the class again")

    def _read(self, problem: str) -> None:
        if not self.path.is_file() or self.path.is_symlink():
            raise JudgeError(f"{self.path}: not a journal file (a link or something else); pass "
                             f"--restart to grade the class again")
        lines = self.path.read_text(encoding="utf-8", errors="replace").split("\n")
        good_bytes = 0
        for i, line in enumerate(lines):
            try:
                record = json.loads(line) if line else None
            except ValueError:
                if i < len(lines) - 1:
                    raise self._damaged(i + 1, "is not JSON") from None
                record = None  # torn final line: the grade it held is simply redone
            if record is None:
                continue
            good_bytes += len(line.encode("utf-8")) + 1
            if not isinstance(record, dict):
                raise self._damaged(i + 1, "is not a journal record")
            if not self.id:
                if not isinstance(record.get("id"), str) or record.get("journal") != VERSION:
                    raise JudgeError(f"{self.path}: line {i + 1} is not the header of a journal of "
                                     f"this judge (version {VERSION}); pass --restart to grade "
                                     f"the class again")
                header_id = record["id"]
                if not authentic(self.secret, header_id, record):
                    raise self._damaged(i + 1, "was not written by this judge (its mac does not match)")
                if record.get("problem") != problem:
                    raise JudgeError(f"{self.path}: journal of problem {record.get('problem')!r}, "
                                     f"not {problem!r}")
                self.id = header_id
            elif not authentic(self.secret, self.id, record):
                raise self._damaged(i + 1, "was not written by this judge (its mac does not match)")
            elif not isinstance(record.get("key"), str) or not isinstance(record.get("submission"), str):
                raise self._damaged(i + 1, "is not a journal record")
            else:
                self.records[record["key"]] = record
            self._same_way(record, i + 1)
        if not self.id:
            raise JudgeError(f"{self.path}: an empty journal; pass --restart to grade the class again")
        with open(self.path, "r+b") as f:  # drop a torn tail so appends start on a fresh line
            f.truncate(min(good_bytes, os.path.getsize(self.path)))

    def _same_way(self, record: dict, line: int) -> None:
        """Refuse to resume a journal graded another way: the source gate set the other way, or
        another sandbox. A sandbox that could not be used (``None``: every grade was ``IE``, and
        is graded again) matches any."""
        for name, now in self.how.items():
            was = record.get(name, now)
            if was != now and None not in (was, now):
                what, option, shown = _SWITCHES[name]
                where = "this batch was" if "journal" in record else f"line {line} was"
                raise JudgeError(f"{self.path}: {where} graded with {what} {shown(was)}; "
                                 f"resume it with {option} {shown(was)}, or pass --restart "
                                 f"to grade the class again with {what} {shown(now)}")

    def reusable(self, key: str, sha256: str) -> dict | None:
        """The journal's record of ``key`` if it still stands: same file, same basis, not IE."""
        old = self.records.get(key)
        if old and sha256 and old.get("sha256") == sha256 and old.get("basis") == self.basis \
                and old.get("verdict") != "IE":
            return old
        return None

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(sign(self.secret, self.id, record), separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, record: dict) -> None:
        record = {**record, "basis": self.basis}
        with self._lock:
            self._write(record)
            self.records[record["key"]] = record

    def close(self) -> None:
        self._file.close()
