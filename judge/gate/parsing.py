"""``ast.parse`` for a judge that parses in several threads at once.

CPython 3.11 keeps the depth of its AST conversion in state shared by all threads, so two
threads parsing at the same time can fail with ``SystemError: AST constructor recursion depth
mismatch`` (CPython gh-106905). The judge parses sources in threads (grades, batches, checks
run side by side), so every parse on its side goes through one lock.
"""

from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse(source, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse``, one thread at a time."""
    with _LOCK:
        return ast.parse(source, filename, mode)
