"""The order a batch grades its submissions in: the longest first, so that a grade that runs
into its time limits does not start last and keep one job busy alone while the others have
nothing left to grade.

How long a grade takes is known from earlier records (a journal: the same content's, else the
same entry's, a student's previous file), and guessed from the source where nothing is known:
a Python ``while`` statement is the loop whose end the source does not bound, the usual way a
submission runs until its case limit stops it (``open_ended``). The guess reads the syntax tree
only (``judge.gate.parsing``), never runs anything, and changes nothing but the order: every
submission is graded the same way wherever it goes.
"""

from __future__ import annotations

import ast

from judge.gate.parsing import parse

#: Sources larger than this are not parsed for the guess (the source gate refuses them unparsed).
MAX_GUESS_BYTES = 128 * 1024


def open_ended(source: bytes | str) -> bool:
    """Whether ``source`` holds a Python ``while`` statement (anywhere: a function, a class, the
    module); False for a source that does not parse or is larger than ``MAX_GUESS_BYTES``.
    ``jax.lax.while_loop`` is a call, not a statement, and does not count."""
    if len(source) > MAX_GUESS_BYTES:
        return False
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, ast.While) for node in ast.walk(tree))


def longest_first(todo: list, contents: dict[str, str], earlier: list[dict],
                  guessed: frozenset[str] | set[str] = frozenset()) -> list:
    """``todo`` (entries with a ``key``) in the order to grade it: the longest grades first,
    where earlier records tell how long one took (the same content's record, else the same
    entry's); every other entry where a grade of the median known time would go, but those in
    ``guessed`` (keys whose source is ``open_ended``, with no known time) ahead of all; name
    order among equals. ``contents``: each entry's sha256 ("" when unreadable); ``earlier``:
    the journal's records (and those of the journal a restart replaced). Nothing known and
    nothing guessed: ``todo`` as it is (name order)."""
    by_key, by_content = {}, {}
    for record in earlier:
        time_s = record.get("time_s")
        if isinstance(time_s, (int, float)) and record.get("verdict") not in ("CE", "IE"):
            by_key[record.get("key")] = float(time_s)
            if record.get("sha256"):
                by_content[record["sha256"]] = float(time_s)
    known = {e.key: by_content.get(contents.get(e.key), by_key.get(e.key)) for e in todo}
    ahead = {e.key for e in todo if known[e.key] is None and e.key in guessed}
    first = [e for e in todo if e.key in ahead]
    rest = [e for e in todo if e.key not in ahead]
    times = sorted(t for t in known.values() if t is not None)
    if not times:
        return first + rest
    typical = times[len(times) // 2]
    return first + sorted(rest, key=lambda e: -(typical if known[e.key] is None else known[e.key]))
