"""Hints from known mistakes: a failing submission that computes, on every **example**, exactly
what a hinted known submission computes is shown that submission's hint.

A known submission carries a hint in ``submissions/<id>/submissions.yaml``::

    wrong_answer/strict_mask.py:
      hint: "Both ends of the range get the gradient: qmin <= x / scale <= qmax."

Only example outputs are compared (a fingerprint per example: a hash of its output fields and
probe results, or of the error it raised: its type and text, so that two mistakes raising the
same type, a shape error and a dim read as a number, are told apart), so a hint reveals nothing
about hidden cases. The
known submissions' fingerprints are computed once, by grading them on the examples only (the
source gate off: they are the author's code), and cached in memory and under the judge's cache
folder, keyed by the spec, the submission's source, the judge and JAX versions.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judge import __version__
from judge.run import cache

OVERRIDES_FILE = "submissions.yaml"
LOG = logging.getLogger("judge.grade.hints")
_memory: dict[str, tuple] = {}
#: Changes whenever what a fingerprint hashes changes, so that fingerprints cached by an older
#: judge are computed again rather than compared with new ones.
_FORMAT = b"fingerprint 2: errors by type and text"

_lock = threading.Lock()


@dataclass(frozen=True)
class Hinted:
    rel: str          # path relative to submissions/<id>/, e.g. wrong_answer/strict_mask.py
    path: Path
    hint: str


def hinted(problem) -> list[Hinted]:
    """The hinted known submissions of ``problem`` (entries of ``submissions.yaml`` with a
    ``hint`` string whose file exists); malformed files give none (``judge check`` reports them)."""
    import yaml

    folder = problem.path.parent.parent / "submissions" / problem.id
    path = folder / OVERRIDES_FILE
    try:
        data = _parsed(path) if path.is_file() else None
    except (OSError, yaml.YAMLError):
        return []
    out = []
    for rel, entry in (data.items() if isinstance(data, dict) else ()):
        hint = entry.get("hint") if isinstance(entry, dict) else None
        if isinstance(hint, str) and hint.strip() and (folder / str(rel)).is_file():
            out.append(Hinted(str(rel), folder / str(rel), " ".join(hint.split())))
    return out


_digests: dict[str, tuple] = {}
_yaml_seen: dict[str, tuple] = {}


def _while_unchanged(memo: dict, path: Path, make):
    """``make(path)``, kept in ``memo`` and made again only when the file's size, modification
    time or inode changed (a batch asks once per failing submission)."""
    seen = path.stat()
    key = (seen.st_mtime_ns, seen.st_size, seen.st_ino)
    with _lock:
        known = memo.get(str(path))
    if known is not None and known[0] == key:
        return known[1]
    value = make(path)
    with _lock:
        memo[str(path)] = (key, value)
    return value


def _parsed(path: Path):
    """``path`` parsed as YAML, parsed again only when it changed."""
    import yaml

    return _while_unchanged(_yaml_seen, path, lambda p: yaml.safe_load(p.read_text(encoding="utf-8")))


def _canonical(value):
    if isinstance(value, np.ndarray):
        return ["array", value.dtype.str, list(value.shape), hashlib.sha256(value.tobytes()).hexdigest()]
    if isinstance(value, np.generic):
        return _canonical(np.asarray(value))
    if isinstance(value, dict):
        return ["dict", sorted([str(k), _canonical(v)] for k, v in value.items())]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [_canonical(v) for v in value]]
    return [type(value).__name__, repr(value)]


def fingerprint(report) -> str | None:
    """A case report's outcome as a hash: its output and probe results, or the error's type and
    text (the same type alone says little: a TypeError is a shape mismatch or a dim read as a
    number alike)."""
    if report is None:
        return None
    if report.error is not None:
        said = json.dumps([str(report.error.type), str(report.error.message)])
        return "error:" + hashlib.sha256(said.encode()).hexdigest()
    probes = report.probes
    data = [_canonical(report.output),
            _canonical(dict(probes.values)) if probes else None,
            sorted(str(k) for k in probes.errors) if probes else None]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def example_fingerprints(problem, run) -> tuple:
    """One fingerprint per example of the problem (None where the worker reported nothing)."""
    return tuple(fingerprint(run.cases.get(c.index)) for c in problem.examples)


def _key(problem, path: Path) -> str:
    digest = hashlib.sha256()
    for part in (hashlib.sha256(_FORMAT).digest(), hashlib.sha256(__version__.encode()).digest(),
                 hashlib.sha256(cache.jax_version().encode()).digest(),
                 _file_digest(Path(problem.path)), _file_digest(path)):
        digest.update(part)
    return digest.hexdigest()


def _file_digest(path: Path) -> bytes:
    """The SHA-256 of ``path``'s bytes, read again only when it changed (a batch asks for every
    hinted file once per failing submission)."""
    return _while_unchanged(_digests, path, lambda p: hashlib.sha256(p.read_bytes()).digest())


def known_fingerprints(problem, known: Hinted, sandbox: str | None = None, *, grade) -> tuple:
    """The example fingerprints of a known submission: computed once (with ``grade``, which is
    ``grading.grade``, passed in so this module does not depend on grading), then cached."""
    key = _key(problem, known.path)
    folder = cache.root() / "hints" if cache.enabled() else None
    with _lock:
        if key in _memory:
            return _memory[key]
        stored = folder / f"{key}.json" if folder else None
        if stored is not None and stored.is_file():
            try:
                value = tuple(json.loads(stored.read_text(encoding="utf-8")))
                _memory[key] = value
                return value
            except (OSError, ValueError):
                pass
        result = grade(problem, known.path, examples_only=True, source_gate=False, hints=False,
                       **({"sandbox": sandbox} if sandbox else {}))
        value = tuple(result.example_fingerprints)
        _memory[key] = value
        if stored is not None:
            from judge.atomic import write_text

            try:
                folder.mkdir(parents=True, exist_ok=True)
                write_text(stored, json.dumps(list(value)))
            except OSError as exc:
                LOG.info("hints: cannot store %s: %s", stored, exc)
        return value


def match(problem, fingerprints: tuple, sandbox: str | None = None, *, grade=None) -> str:
    """The hint of the first hinted known submission whose example fingerprints equal
    ``fingerprints`` on every example, or "". ``grade`` grades a known submission."""
    if not fingerprints or any(f is None for f in fingerprints):
        return ""
    for known in hinted(problem):
        if known_fingerprints(problem, known, sandbox, grade=grade) == tuple(fingerprints):
            return known.hint
    return ""

