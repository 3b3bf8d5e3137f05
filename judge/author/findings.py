"""The levels of a `judge check` finding, shared by every check (a leaf: imports nothing)."""

ERROR, WARNING, INFO = "error", "warning", "info"

#: Warn when the time limit is less than this many times the slowest accepted case.
TIME_MARGIN = 2.0
