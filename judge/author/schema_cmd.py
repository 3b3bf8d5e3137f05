"""`judge schema`: the JSON Schema of a problem spec, for editors outside this checkout.

The schema is package data (``judge/schema/problem.schema.json``), so an installed judge has it
wherever it is installed. ``judge schema`` prints it; ``judge schema --write DIR_OR_FILE`` writes
it atomically next to the specs (``DIR/problem.schema.json``, or beside a ``.yaml`` spec, or to
a ``.json`` path) and says which first line makes an editor use it:
``# yaml-language-server: $schema=problem.schema.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from judge.atomic import write_text
from judge.errors import JudgeError
from judge.problem.spec import SCHEMA_PATH

FILE_NAME = "problem.schema.json"


def text() -> str:
    """The schema's text, as the package holds it."""
    return SCHEMA_PATH.read_text(encoding="utf-8")


def target(where: Path) -> Path:
    """Where ``--write WHERE`` puts the schema: inside a folder, beside a spec (``.yaml`` or
    ``.yml``), or at a ``.json`` path. JudgeError for anything else."""
    where = Path(where)
    if where.is_dir():
        return where / FILE_NAME
    if where.suffix in (".yaml", ".yml"):
        if not where.is_file():
            raise JudgeError(f"{where}: no such spec; name a spec, a folder or a .json file")
        return where.parent / FILE_NAME
    if where.suffix == ".json":
        return where
    raise JudgeError(f"{where}: not a folder, a spec (.yaml) or a .json file; "
                     f"`judge schema --write problems/` writes problems/{FILE_NAME}")


def schema_line(schema_file: Path, spec_folder: Path) -> str:
    """The first line of a spec in ``spec_folder`` that points an editor at ``schema_file``."""
    try:
        relative = Path(schema_file).resolve().relative_to(Path(spec_folder).resolve())
        where = relative.as_posix()
    except ValueError:
        where = Path(schema_file).resolve().as_uri()
    return f"# yaml-language-server: $schema={where}"


def write(where: Path) -> Path:
    """Write the schema to ``target(where)`` atomically; return the path written."""
    path = target(where)
    write_text(path, text())
    return path


def main(args) -> int:
    if args.write is None:
        sys.stdout.write(text())
        return 0
    path = write(args.write)
    print(f"judge schema: wrote {path}; a spec in {path.parent} starts with:", file=sys.stderr)
    print(schema_line(path, path.parent), file=sys.stderr)
    return 0
