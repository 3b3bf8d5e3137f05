"""What a submission printed on the examples, as every report shows it.

The worker captures each case's stdout and stderr (``jax.debug.print`` included), at most
``capture_bytes`` of each (``judge.worker.protocol``), and the judge keeps them for examples only
(``judge.grade.outcome``): a hidden case's output is never shown. Here that text is cut to what a
report shows (``MAX_LINES`` lines of at most ``MAX_LINE`` characters), and a print of a traced
value (``JitTracer(float32[2,2])``, what Python's ``print`` sees while JAX traces) is recognised,
so a report can say once why and what to use instead.
"""

from __future__ import annotations

import re

#: Lines of one stream a report shows per example, and characters per line.
MAX_LINES, MAX_LINE = 40, 300
STREAMS = ("stdout", "stderr")
#: A traced value as Python prints it: JitTracer(float32[2,2]), GradTracer(primal=...),
#: JVPTracer(...), DynamicJaxprTracer(...), BatchTracer(...).
TRACER = re.compile(r"\b[A-Z][A-Za-z]*Tracer\(")
TRACER_NOTE = ("your code printed a traced value (such as `JitTracer(float32[5])`): the judge "
               "traces your function, and Python's print runs during the trace, when an array "
               "is a placeholder with only a shape and a dtype. To see the values as they are "
               "computed, use `jax.debug.print(\"x = {}\", x)`.")


def shown(text: str | None) -> str:
    """``text`` as a report shows it: its first MAX_LINES lines, each cut at MAX_LINE
    characters, and a line saying how many were left out."""
    lines = (text or "").rstrip().splitlines()
    kept = [line if len(line) <= MAX_LINE else line[:MAX_LINE] + " [...]" for line in lines[:MAX_LINES]]
    if len(lines) > MAX_LINES:
        kept.append(f"[... {len(lines) - MAX_LINES} more lines not shown]")
    return "\n".join(kept)


def of_case(case) -> dict[str, str]:
    """What an example printed, by stream (only the streams it wrote to); {} for a hidden case
    or an example that printed nothing."""
    if case.visibility != "example":
        return {}
    return {stream: text for stream in STREAMS if (text := shown(case.details.get(stream)))}


def tracer_note(result) -> str:
    """TRACER_NOTE when an example's output shows a traced value, else ""."""
    for case in result.cases:
        if any(TRACER.search(text) for text in of_case(case).values()):
            return TRACER_NOTE
    return ""
