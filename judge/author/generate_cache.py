"""What `judge generate` produced, kept so that the same command with ``--write`` (or ``--out``)
writes exactly what its preview showed without generating again.

An entry is named by a SHA-256 of everything the output depends on: the spec's text, the
reference's and the generator's, the known submissions (and the mutants' file) when the cases
are targeted, the options (count, seed, families, target, minimize), the installed JAX (which
computes the expected outputs) and the judge's own source. A package or option that changed
gives another name, so a stale entry is never used; after ``--write`` the spec itself has
changed. Entries are plain JSON (the YAML text, each case's name and text, the report) in
``<cache>/generate/``, written atomically; one that cannot be read is ignored. The cache is the
judge's own folder (``judge.run.cache``), and ``JUDGE_CACHE=off`` turns this off with the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from judge.run import cache

LAYOUT = 1
_JUDGE = Path(__file__).resolve().parents[1]


def key(problem, count: int, seed: int, families, target, minimize: bool, must_catch) -> str:
    """The entry's name for this problem package and these options; ``must_catch`` is the known
    submissions' ``{relative path: file}`` (read only when ``target``)."""
    digest = hashlib.sha256(f"{LAYOUT}|{cache.jax_version()}".encode())

    def add(label: str, path: Path) -> None:
        digest.update(f"|{label}|".encode())
        digest.update(path.read_bytes() if path.is_file() else b"<missing>")

    add("spec", Path(problem.path))
    add("reference", Path(problem.reference))
    from judge.author.generate import generator_path

    add("generator", generator_path(problem))
    if target:
        for rel, path in sorted(must_catch().items()):
            add(f"submission {rel}", path)
        add("mutants", Path(problem.path).parent.parent / "submissions" / problem.id / "mutants.yaml")
    options = [count, seed, sorted(families or []), str(target), bool(minimize)]
    digest.update(json.dumps(options).encode())
    for path in sorted(_JUDGE.rglob("*.py")):
        add(str(path.relative_to(_JUDGE)), path)
    return digest.hexdigest()


def _path(name: str) -> Path:
    return cache.directory() / "generate" / f"{name}.json"


def lookup(name: str) -> dict | None:
    """The entry ``name``, or None (missing, unreadable, or the cache off)."""
    if not cache.enabled():
        return None
    try:
        entry = json.loads(_path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(entry, dict) and isinstance(entry.get("yaml"), str) \
        and isinstance(entry.get("report"), str) and isinstance(entry.get("cases"), list)
    return entry if ok else None


def store(name: str, yaml_text: str, cases: list[tuple[str, str]], report: str, gave_up: bool) -> None:
    """Keep an outcome (best effort: a cache that cannot be written is skipped)."""
    if not cache.enabled():
        return
    folder = _path(name).parent
    entry = {"yaml": yaml_text, "cases": [{"name": n, "text": t} for n, t in cases],
             "report": report, "gave_up": bool(gave_up)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, encoding="utf-8",
                                         suffix=".tmp") as f:
            json.dump(entry, f)
        os.replace(f.name, _path(name))
    except OSError:
        pass
