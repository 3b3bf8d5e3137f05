"""Bearer tokens: who may call the API, and whose submissions are whose.

The tokens are ``$JUDGE_SERVICE_TOKEN`` (if set) and the lines of ``DATA/tokens`` (one token a
line; blank lines and ``#`` comments ignored). At first start, with neither, the service writes
a new random token to that file, readable by its owner only (0600), and prints it. A token file
anyone else can read or write is refused: a token is the only key to the API.

The file is read again, without a restart, whenever it changes (``Tokens`` looks at its
modification and change times, size, inode and mode at each request): a line added is accepted
at once, a line removed is refused at once. A file that becomes invalid (open to others, a short
token) grants nothing until it is fixed, and the log says why; ``chmod 644`` alone refuses every
token of the file at the next request, and ``chmod 600`` alone restores them.

A submission belongs to the token that sent it; the database keeps the token's SHA-256, never
the token. Tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import threading
from pathlib import Path

from judge.errors import JudgeError

log = logging.getLogger("judge.service")

ENV_VAR = "JUDGE_SERVICE_TOKEN"
FILE_NAME = "tokens"
#: Shorter tokens are refused: a token must not be guessable over the network.
MIN_LENGTH = 16


def owner(token: str) -> str:
    """The name a token's submissions are kept under."""
    return hashlib.sha256(token.encode()).hexdigest()


def _check(token: str, where: str) -> str:
    if len(token) < MIN_LENGTH or any(c.isspace() for c in token):
        raise JudgeError(f"{where}: a token must be at least {MIN_LENGTH} characters without "
                         f"spaces")
    return token


def read_file(path: Path) -> list[str]:
    """The tokens in ``path``; JudgeError if others may read or write it."""
    mode = os.stat(path).st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise JudgeError(f"{path}: the token file is open to other users (mode "
                         f"{stat.S_IMODE(mode):o}); `chmod 600 {path}`")
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [_check(line, str(path)) for line in lines if line and not line.startswith("#")]


def create_file(path: Path) -> str:
    """A new token, written to the new file ``path`` (0600)."""
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("# judge service tokens, one a line; each client its own\n" + token + "\n")
    return token


def load(data: Path, announce=None) -> list[str]:
    """The tokens the service accepts. Without $JUDGE_SERVICE_TOKEN and ``DATA/tokens``, a new
    token is written there, and ``announce`` is told about it."""
    tokens = []
    env = os.environ.get(ENV_VAR)
    if env:
        tokens.append(_check(env.strip(), f"${ENV_VAR}"))
    path = Path(data) / FILE_NAME
    if path.exists():
        tokens += read_file(path)
    elif not tokens:
        token = create_file(path)
        if announce:
            announce(f"judge service: a new API token, saved in {path} (mode 0600):\n  {token}")
        tokens.append(token)
    if not tokens:
        raise JudgeError(f"{path}: no token in the file and ${ENV_VAR} is not set")
    return tokens


class Tokens:
    """The accepted tokens; ``check(header)`` is the owner of a valid ``Authorization`` header,
    else None. ``tokens`` are fixed; ``path``, if given, is a token file read again whenever it
    changes."""

    def __init__(self, tokens: list[str], path: Path | None = None):
        self._fixed = [t.encode() for t in tokens]
        self._path = Path(path) if path is not None else None
        self._seen: tuple | None = None   # the file's ``_identity`` when last read
        self._from_file: list[bytes] = []
        self._tokens = list(self._fixed)
        self._lock = threading.Lock()

    @classmethod
    def watching(cls, data: Path) -> "Tokens":
        """$JUDGE_SERVICE_TOKEN (fixed) and ``DATA/tokens``, read again when it changes."""
        env = os.environ.get(ENV_VAR)
        return cls([_check(env.strip(), f"${ENV_VAR}")] if env else [], Path(data) / FILE_NAME)

    def _refresh(self) -> None:
        if self._path is None:
            return
        try:
            st = os.stat(self._path)
            # the mode and the change time too: chmod changes no content, yet decides whether
            # the file grants anything
            seen = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode)
        except FileNotFoundError:
            seen = None
        if seen == self._seen:
            return
        with self._lock:
            if seen == self._seen:
                return
            try:
                tokens = [] if seen is None else read_file(self._path)
            except (JudgeError, OSError, UnicodeDecodeError) as exc:
                log.error("the token file was not read again, and its tokens are refused until "
                          "it is fixed: %s", exc)
                tokens = []
            else:
                if self._seen is not None:
                    log.info("token file %s read again: %d token(s)", self._path, len(tokens))
            self._from_file = [t.encode() for t in tokens]
            self._tokens = self._fixed + self._from_file
            self._seen = seen

    def check(self, header: str | None) -> str | None:
        self._refresh()
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        given = token.strip().encode()
        found = False
        for known in self._tokens:  # every one compared: the time says nothing about which
            found |= hmac.compare_digest(given, known)
        return owner(given.decode()) if found else None
