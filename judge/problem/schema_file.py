"""The problem spec's JSON schema (``judge/schema/problem.schema.json``): where it is and what it
says, read once. Its lists (the dtypes a rule may name) are the vocabulary's one source."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "problem.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def computed_dtypes() -> tuple[str, ...]:
    """Every dtype a rule may name for what a program computes."""
    return tuple(schema()["$defs"]["computed_dtype"]["enum"])
