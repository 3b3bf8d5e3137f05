"""``judge service tokens add|list|revoke``: the service's tokens, each with a label and a role.

``add`` makes a random token, prints it once, and keeps only its SHA-256 in ``DATA/tokens``
with its role and label (``judge.service.auth.hashed_line``); ``list`` shows every token's id
(the first digits of its SHA-256), role and label, never a token; ``revoke`` removes the one
named by its label or id. The file is rewritten in one rename, mode 0600, with its other lines
(plain tokens, comments) as they were, under a lock so two commands never lose each other's
line. The running service reads the file again when it changes: no restart.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import secrets
import sys
import tempfile
from pathlib import Path

from judge.errors import JudgeError
from judge.service import auth

#: An id shown by ``list``: this many hex digits of the token's SHA-256.
ID_DIGITS = 12


def _path(data: Path) -> Path:
    return Path(data) / auth.FILE_NAME


@contextlib.contextmanager
def _locked(data: Path):
    Path(data).mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(Path(data) / f".{auth.FILE_NAME}.lock",
                 os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _lines(data: Path) -> list[str]:
    """The file's lines as they are (checked first: mode, every line); none if it is absent."""
    path = _path(data)
    if not path.exists():
        return []
    auth.read_file(path)  # refuses a file open to others, or a line that is no token
    return path.read_text().splitlines()


def _write(data: Path, lines: list[str]) -> None:
    path = _path(data)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write("".join(line + "\n" for line in lines))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _entry(line: str) -> auth.Entry | None:
    line = line.strip()
    return None if not line or line.startswith("#") else auth.parse_line(line, auth.FILE_NAME)


def listed(data: Path) -> list[auth.Entry]:
    """Every token of the file, in its order."""
    return [e for e in map(_entry, _lines(data)) if e is not None]


def add(data: Path, label: str, role: str = "student") -> str:
    """A new token with ``label`` (unique) and ``role``; its SHA-256 is stored, the token
    returned (and shown nowhere else)."""
    label = auth.check_label(label)
    if role not in auth.ROLES:
        raise JudgeError(f"--role must be one of {', '.join(auth.ROLES)}, got {role!r}")
    with _locked(data):
        lines = _lines(data)
        if any(e and e.label == label for e in map(_entry, lines)):
            raise JudgeError(f"{_path(data)}: a token labelled {label!r} exists already; "
                             f"revoke it first, or choose another label")
        token = secrets.token_urlsafe(32)
        head = [] if lines else ["# judge service tokens, one a line; each client its own"]
        _write(data, head + lines + [auth.hashed_line(auth.Entry(auth.owner(token), role, label))])
    return token


def revoke(data: Path, name: str) -> auth.Entry:
    """Remove the token whose label is ``name``, or whose id starts with ``name`` (at least 8
    hex digits); JudgeError if none or several match."""
    with _locked(data):
        lines = _lines(data)
        found = [(i, e) for i, e in enumerate(map(_entry, lines)) if e is not None and (
            e.label == name or (len(name) >= 8 and e.owner.startswith(name.lower())))]
        if len(found) != 1:
            raise JudgeError(f"{_path(data)}: {'no token' if not found else 'several tokens'} "
                             f"with the label or id {name!r}; `judge service tokens list` "
                             f"shows them")
        index, entry = found[0]
        _write(data, lines[:index] + lines[index + 1:])
    return entry


def main(args) -> int:
    """The ``tokens`` subcommand, after ``judge.service.main`` has settled the data folder."""
    if args.tokens_command == "add":
        token = add(args.data, args.label, args.role)
        print(token)
        print(f"judge service: a new {args.role} token labelled {args.label!r}, shown this once "
              f"(only its SHA-256 is kept in {_path(args.data)}); the service accepts it now",
              file=sys.stderr)
    elif args.tokens_command == "list":
        rows = listed(args.data)
        print(f"{'id':<{ID_DIGITS}}  {'role':<10}  label")
        for e in rows:
            print(f"{e.owner[:ID_DIGITS]}  {e.role:<10}  {e.label or '(a plain token line)'}")
    else:
        entry = revoke(args.data, args.name)
        print(f"judge service: revoked {entry.label or entry.owner[:ID_DIGITS]} ({entry.role}); "
              f"the service refuses it now", file=sys.stderr)
    return 0


def add_parser(sv, data_help: str) -> None:
    """``judge service tokens ...`` under the ``service`` parser ``sv``."""
    sub = sv.add_subparsers(dest="service_command", metavar="tokens")
    tk = sub.add_parser("tokens", help="add, list or revoke the service's tokens")
    actions = tk.add_subparsers(dest="tokens_command", required=True, metavar="ACTION")
    add_p = actions.add_parser("add", help="make a token and print it (once)")
    add_p.add_argument("--label", required=True, metavar="NAME",
                       help="who it is for (a student's name or id), unique; lists and the "
                            "class's CSV show it")
    add_p.add_argument("--role", choices=auth.ROLES, default="student",
                       help="student (the default: sees its own submissions) or instructor "
                            "(sees every user's, and the class's CSV)")
    actions.add_parser("list", help="every token's id, role and label (never a token)")
    rv = actions.add_parser("revoke", help="remove a token; the service refuses it at once")
    rv.add_argument("name", metavar="LABEL_OR_ID", help="its label, or its id (8 or more digits)")
    for action in (add_p, actions.choices["list"], rv):
        action.add_argument("--data", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                            help=data_help)
