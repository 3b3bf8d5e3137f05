"""Taking a submission in: the student's own regular file, read once, never followed.

A submission is whatever a student (or a git upload) put in a folder, so the judge looks before
it opens anything: a symbolic link (wherever it points: another student's file, the reference,
``/dev/zero``), a FIFO, a device, a socket or a directory named ``*.py`` is refused without being
opened, and a file larger than ``MAX_BYTES`` without being read (``os.lstat`` first; then
``O_NOFOLLOW | O_NONBLOCK``, a check that the opened file is the one looked at, and at most
``MAX_BYTES + 1`` bytes read). Inside a class folder every folder on the way is opened the same
way (``read_beneath``), so no link anywhere leads out of it.

The content is read once and graded from a private copy (``private_copy``): a file swapped or
edited after the check cannot change what runs. This module never runs, imports or parses a
submission.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.run.boundary import escape

#: The largest submission the judge reads, in bytes (the source gate checks files of up to the
#: same size); no honest solution comes near it.
MAX_BYTES = 1 << 20

_OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def shown(text: str) -> str:
    """``text`` (a name a student chose) as one safe line, and one-to-one: backslashes are
    doubled before control characters, separators and undecodable bytes become escapes, so two
    different names never look the same (``tab<TAB>x.py`` is ``tab\\tx.py``, the file named
    ``tab\\tx.py`` is ``tab\\\\tx.py``)."""
    return escape(text.replace("\\", "\\\\"))


class Refused(JudgeError):
    """Not a file the judge grades. ``what`` says why in a few words (``is a symbolic link``);
    the message names the file too."""

    def __init__(self, name: str, what: str):
        super().__init__(f"{name}: {what}")
        self.what = what


def kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return ("is a symbolic link; a submission must be the student's own file, "
                "not a link to one")
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (a named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def too_large(size: int, cap: int = MAX_BYTES) -> str:
    return f"is larger than {cap} bytes ({size} bytes); the judge reads submissions of up to {cap} bytes"


@dataclass(frozen=True)
class Submission:
    """A submission's content, read once. ``name`` is the file's own name (the student's, not
    escaped), ``label`` how a report names it (the path as given, or the student's entry)."""

    name: str
    data: bytes = b""
    label: str = ""

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def __str__(self) -> str:
        return self.label or self.name


def read(name: str | Path, dir_fd: int | None = None, label: str | None = None,
         cap: int = MAX_BYTES) -> Submission:
    """The regular file ``name`` (relative to ``dir_fd`` if given), read once. Raise ``Refused``
    for anything else, or a file over ``cap`` bytes, without opening or reading it;
    FileNotFoundError when there is nothing there."""
    name = os.fspath(name)
    label = shown(label if label is not None else name)
    st = os.lstat(name, dir_fd=dir_fd)
    what = kind(st.st_mode)
    if what:
        raise Refused(label, what)
    if st.st_size > cap:
        raise Refused(label, too_large(st.st_size, cap))
    try:
        fd = os.open(name, _OPEN_FILE, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # it became a link after the look
            raise Refused(label, kind(stat.S_IFLNK)) from None
        raise Refused(label, f"cannot be read ({exc.strerror})") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise Refused(label, "was replaced while the judge was reading it")
        chunks, total = [], 0
        while total <= cap:
            chunk = os.read(fd, min(1 << 16, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:
            raise Refused(label, too_large(max(total, now.st_size), cap))
    finally:
        os.close(fd)
    base = os.path.basename(name)
    return Submission(name=base, data=b"".join(chunks), label=label)


def read_beneath(folder: Path, parts: tuple[str, ...], cap: int = MAX_BYTES) -> Submission:
    """The file ``folder/part/.../part`` read as ``read`` does, with every folder on the way
    opened without following a link (``folder`` itself is the grader's and is followed). Raise
    ``Refused``, naming the path below ``folder``, for a link, a FIFO or anything else on the
    way or at the end, and when something there vanished."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for depth, part in enumerate(parts[:-1]):
            where = shown("/".join(parts[:depth + 1]))
            try:
                mode = os.lstat(part, dir_fd=fd).st_mode
                if not stat.S_ISDIR(mode):
                    raise Refused(where, kind(mode) or "is not a folder")
                inner = os.open(part, _OPEN_DIR, dir_fd=fd)
            except FileNotFoundError:
                raise Refused(where, "vanished while the judge was reading it") from None
            except OSError as exc:
                raise Refused(where, kind(stat.S_IFLNK) if exc.errno == errno.ELOOP
                              else f"cannot be read ({exc.strerror})") from None
            os.close(fd)
            fd = inner
        label = "/".join(parts)
        try:
            return read(parts[-1], dir_fd=fd, label=label, cap=cap)
        except FileNotFoundError:
            raise Refused(shown(label), "vanished while the judge was reading it") from None
    finally:
        os.close(fd)


@contextlib.contextmanager
def private_copy(submission: Submission) -> Iterator[Path]:
    """A copy of ``submission`` under its own name in a new folder only this user can enter,
    removed afterwards: what the judge checks and runs is what it read."""
    folder = tempfile.mkdtemp(prefix="judge-submission-")
    try:
        path = Path(folder) / submission.name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(submission.data)
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)
