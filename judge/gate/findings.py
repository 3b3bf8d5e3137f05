"""What the source gate reports: a ``Finding`` per refused construct, and ``summary``, the
verdict message made of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Finding:
    line: int
    column: int        # 0-based, as ``ast`` counts
    construct: str     # what was found: "attribute access '__globals__'", "import of 'os'"
    reason: str        # why it is refused, for a student

    def __str__(self) -> str:
        return f"line {self.line}: {self.construct} is not allowed ({self.reason})"


def summary(findings: Sequence[Finding], limit: int = 5) -> str:
    """The verdict message: the first ``limit`` findings, in source order."""
    text = "; ".join(str(f) for f in findings[:limit])
    more = len(findings) - limit
    return text + (f"; and {more} more" if more > 0 else "")
