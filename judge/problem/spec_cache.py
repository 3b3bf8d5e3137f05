"""Specs that already passed the schema, remembered by their content, so loading one again skips
parsing the YAML and validating it (most of what loading a spec costs).

An entry is the spec's parsed data as JSON, in ``<cache>/specs/`` (the judge's cache folder,
``judge.run.cache.root``), named by a SHA-256 of the schema and of the spec's exact text: a
changed spec or schema has another name and is parsed and checked in full. Only data that
round-trips through JSON unchanged (values, types and key order) is remembered, so nothing
YAML-only, such as a NaN, a date or an integer key, is ever read back different. ``spec.load`` still builds the problem from the data each time, with
every check that is not the schema's; what fails there is reported from the YAML, with its line.
The cache is an optimisation: a folder that cannot be written, or an entry that cannot be read,
is simply not used. ``JUDGE_CACHE=off`` turns it off, with the compilation cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

#: Bumped whenever what an entry holds changes.
LAYOUT = 2  # 2: entries keep the spec's key order
#: Entries kept; past it the least recently written go.
MAX_ENTRIES = 256


def _folder() -> Path | None:
    from judge.run import cache

    return cache.root() / "specs" if cache.enabled() else None


def _name(text: str, schema_path: Path) -> str:
    digest = hashlib.sha256(f"spec-cache-{LAYOUT}\0".encode())
    digest.update(schema_path.read_bytes())
    digest.update(b"\0")
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()[:32] + ".json"


def lookup(text: str, schema_path: Path) -> dict | None:
    """The data of ``text`` if it passed the schema before, else None."""
    folder = _folder()
    if folder is None:
        return None
    try:
        data = json.loads((folder / _name(text, schema_path)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def remember(text: str, schema_path: Path, data: dict) -> None:
    """Note that ``text`` (parsed to ``data``) passed the schema; quiet when it cannot."""
    folder = _folder()
    if folder is None:
        return
    try:
        encoded = json.dumps(data, allow_nan=False)  # keeps the spec's key order
        if repr(json.loads(encoded)) != repr(data):  # the same values, types and key order
            return
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / _name(text, schema_path)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_text(encoded, encoding="utf-8")
        os.replace(temporary, target)
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in entries[:max(0, len(entries) - MAX_ENTRIES)]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        pass
