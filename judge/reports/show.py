"""`judge show`: a problem's statement, signature and public examples as text, with its page
(difficulty, tags, related problems and the number of its progressive hints; ``hints=N`` reveals
the first N), and a problem's line in `judge list` with the filters it answers."""

from __future__ import annotations

import textwrap

import numpy as np

from judge import rules
from judge.problem.casefile import plain_list
from judge.problem.model import Problem, seconds
from judge.grade.verdicts import plural


#: Hints are wrapped to this many columns (statements are shown as their authors wrapped them).
WIDTH = 92


def _value(v) -> str:
    if isinstance(v, np.ndarray):
        return f"{plain_list(v)} ({v.dtype})"
    return repr(v)


def _page(problem: Problem) -> list[str]:
    """Difficulty, tags and related problems, one line each that the spec gives."""
    out = []
    if problem.difficulty:
        out.append(f"Difficulty: {problem.difficulty}")
    if problem.tags:
        out.append("Tags: " + ", ".join(problem.tags))
    if problem.related:
        out.append("Related: " + ", ".join(problem.related))
    return out + [""] if out else out


def _hints(problem: Problem, shown: int) -> list[str]:
    """The progressive hints: how many there are, and the first ``shown`` of them in order."""
    total = len(problem.hints)
    if not total:
        return []
    out = ["", "## Hints"]
    if shown <= 0:
        return out + [f"{plural(total, 'hint')}; `--hints N` shows the first N."]
    for i, hint in enumerate(problem.hints[:shown], 1):
        lines = [wrapped for line in hint.strip().splitlines()
                 for wrapped in textwrap.wrap(line, WIDTH - 5) or [""]]
        out.append(f"  {i}. " + "\n     ".join(lines))
    if shown > total:
        out.append(f"(asked for {shown}; there {'is' if total == 1 else 'are'} only "
                   f"{plural(total, 'hint')}, all shown)")
    elif shown < total:
        out.append(f"({shown} of {plural(total, 'hint')} shown; `--hints {total}` shows them all)")
    return out


def render(problem: Problem, hints: int = 0) -> str:
    """The problem as text; ``hints``: how many progressive hints to reveal (0: only their
    number; more than there are: all of them, with a note)."""
    if hints < 0:
        raise ValueError(f"hints must be 0 or more, got {hints}")
    out = [f"# {problem.title} ({problem.id})", "", *_page(problem), problem.statement.rstrip(), "",
           "## Signature"]
    params = ", ".join(p.name for p in problem.parameters)
    out.append(f"  {problem.entry_point}({params})")
    for p in problem.parameters:
        kind = f"{p.kind} {'/'.join(p.dtypes)}" if p.kind == "array" else p.kind
        if p.shape is not None:
            kind += " of shape (" + ", ".join(map(str, p.shape)) + ("," if len(p.shape) == 1 else "") + ")"
        out.append(f"    {p.name}: {kind}, {'traced' if p.traced else 'static Python value'}")
    if problem.rules:
        out += ["", "## Rules (checked on the traced program)"]
        out.extend(f"  - {r['id']}: {rules.describe(r)}" for r in problem.rules)
        if problem.probe_shapes:
            out.append("  also checked, by tracing only, at: " + "; ".join(
                f"{s.name} (" + ", ".join(f"{k} {tuple(v)}" for k, v in s.shapes.items()) + ")"
                for s in problem.probe_shapes))
    out += ["", "## Examples"]
    for case in problem.examples:
        out.append(f"### {case.name}")
        out.extend(f"  {k} = {_value(v)}" for k, v in case.inputs.items())
        # the directions the judge differentiates along: without them a VJP/JVP cannot be redone
        out.extend(f"  probe: {k} = {_value(v)}" for k, v in case.probe_inputs.items())
        out.extend(f"  -> {k} = {_value(v)}" for k, v in case.expected.items())
        if case.text:
            out.append("  " + case.text.strip().replace("\n", "\n  "))
        out.append("")
    out.append(f"{plural(len(problem.hidden), 'hidden case')}; time limit "
               f"{seconds(problem.limits['time_per_case_s'])} s per case.")
    out.extend(_hints(problem, hints))
    return "\n".join(out) + "\n"


def list_line(problem: Problem) -> str:
    """One problem as `judge list` shows it: id, title, counts, then its difficulty and tags
    when the spec gives them (a spec without them gives the line it always gave)."""
    page = "".join(f"  {part}" for part in (
        problem.difficulty, "tags: " + ", ".join(problem.tags) if problem.tags else None) if part)
    return (f"{problem.id:<20} {problem.title}  ({plural(len(problem.examples), 'example')}, "
            f"{len(problem.hidden)} hidden){page}")


def matches(problem: Problem, tags=(), difficulty: str | None = None) -> bool:
    """`judge list --tag T ... --difficulty D`: the problem carries every tag given (case is
    ignored) and has difficulty ``difficulty`` (None: any, or none)."""
    return ({t.lower() for t in tags} <= set(problem.tags)
            and difficulty in (None, problem.difficulty))
