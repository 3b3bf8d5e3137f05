"""The levels of a `judge check` finding, and how a report names a path, shared by every check
(a leaf: imports nothing of the judge)."""

from pathlib import Path

ERROR, WARNING, INFO = "error", "warning", "info"

#: Warn when the time limit is less than this many times the slowest accepted case.
TIME_MARGIN = 2.0


def shown(path) -> str:
    """A path as a report names it: relative to the current folder where it is below it."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
