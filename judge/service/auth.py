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

**Labels and roles.** A line may also hold a token's SHA-256 instead of the token, with its role
and a label (``sha256:<hex> <role> <label>``, as ``judge service tokens add`` writes it:
``judge.service.tokens``); the token itself is then kept nowhere. Its role is ``student`` (sees
its own submissions, as a plain token does) or ``instructor`` (sees every user's submissions,
and the class's CSV). A plain token line is a student without a label.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import threading
from dataclasses import dataclass
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
    return [_line(line, str(path)) for line in lines if line and not line.startswith("#")]


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
        self._fixed = entries(tokens)
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
            self._from_file = entries(tokens)
            self._tokens = self._fixed + self._from_file
            self._seen = seen

    def check(self, header: str | None) -> str | None:
        who = self.identify(header)
        return who.owner if who else None

    def identify(self, header: str | None) -> "Entry | None":
        """The entry (owner, role, label) of a valid ``Authorization`` header, else None."""
        self._refresh()
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        given = owner(token.strip()).encode()
        found = None
        for known in self._tokens:  # every one compared: the time says nothing about which
            if hmac.compare_digest(given, known.owner.encode()):
                found = known
        return found

    def label(self, who: str) -> str:
        """How lists name the owner ``who``: its token's label, else ``token <first digits>``."""
        self._refresh()
        return next((e.label for e in self._tokens if e.owner == who and e.label),
                    f"token {who[:8]}")


#: The roles a token may have: a student sees its own submissions; an instructor every user's.
ROLES = ("student", "instructor")
HASHED = "sha256:"
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Entry:
    """An accepted token: ``owner`` is its SHA-256 (hex), the name its submissions are kept
    under; ``role`` one of ``ROLES``; ``label`` "" for a plain token line."""

    owner: str
    role: str = "student"
    label: str = ""


def hashed_line(entry: Entry) -> str:
    """The token file's line for ``entry``: ``sha256:<hex> <role> <label>``."""
    return f"{HASHED}{entry.owner} {entry.role} {entry.label}"


def check_label(label: str, where: str = "--label") -> str:
    label = label.strip()
    if not label or len(label) > 100 or not label.isprintable():
        raise JudgeError(f"{where}: a label must be 1 to 100 printable characters, got {label!r}")
    return label


def parse_line(line: str, where: str) -> Entry:
    """A line of the token file as an entry: a plain token (a student without a label), or
    ``sha256:<hex> <role> <label>``; JudgeError for anything else."""
    if not (line.startswith(HASHED) and " " in line):
        return Entry(owner(_check(line, where)))
    digest, _, rest = line[len(HASHED):].partition(" ")
    role, _, label = rest.strip().partition(" ")
    if len(digest) != 64 or not set(digest) <= _HEX or role not in ROLES:
        raise JudgeError(f"{where}: a hashed token line is sha256:<64 hex digits> "
                         f"<{' or '.join(ROLES)}> <label>")
    return Entry(digest, role, check_label(label, where))


def _line(line: str, where: str) -> str:
    parse_line(line, where)
    return line


def entries(lines: list[str]) -> list[Entry]:
    """The entries of token lines (plain tokens or hashed lines) already checked."""
    return [parse_line(line, "token") for line in lines]
