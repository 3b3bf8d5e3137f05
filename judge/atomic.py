"""Writing a file so that readers see the old content or the new, never a mixture.

``write_text`` writes a temporary file in the target's folder, flushes and fsyncs it, lets a
caller verify what is on disk, and only then renames it over the target (``os.replace`` is
atomic on POSIX). If anything fails, the target is untouched and the temporary file removed.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from judge.errors import JudgeError


def read_exact(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def _default_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_text(path: Path, text: str, verify=None, unchanged: str | None = None,
               durable: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically. ``verify(text_on_disk)`` may raise to abort;
    ``unchanged``, if given, is what ``path`` must still hold just before the rename. With
    ``durable`` (the default) the text and the rename reach the disk before this returns (two
    waits on it); without, a crash of the machine may lose the file or leave it partly
    written: for a cache whose reader checks what it reads and treats a loss as a miss."""
    path = Path(path)
    if not path.parent.is_dir():
        raise JudgeError(f"{path}: folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        if verify is not None:
            verify(read_exact(Path(tmp)))
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else _default_mode()
        os.chmod(tmp, mode)
        if unchanged is not None and read_exact(path) != unchanged:
            raise JudgeError(f"{path} changed while cases were being generated; nothing written")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if not durable:
        return
    with contextlib.suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
