"""`judge show`: a problem's statement, signature and public examples as text, with its page
(difficulty, tags, related problems and the number of its progressive hints; ``hints=N`` reveals
the first N), and a problem's line in `judge list` with the filters it answers. The statement's
TeX formulas are shown as plain text (``judge.reports.tex_plain``; the web page typesets them).

The signature says what the spec promises a student: each parameter's kind, dtype, shape and
constraints in words, with its description; the output's fields; the tolerance; the limits;
the rules. Hidden cases are only counted, never shown."""

from __future__ import annotations

import textwrap

import numpy as np

from judge import rules
from judge.problem.casefile import plain_list
from judge.problem.model import DEFAULT_TOLERANCE, Problem, dim_ranges, seconds
from judge.grade import scoring
from judge.grade.verdicts import plural
from judge.reports import tex_plain


#: Hints are wrapped to this many columns (statements are shown as their authors wrapped them).
WIDTH = 92


def _value(v) -> str:
    if isinstance(v, np.ndarray):
        return f"{plain_list(v)} ({v.dtype})"
    if isinstance(v, dict):  # a tree: each leaf as an array is shown
        return "{" + ", ".join(f"{k}: {_value(item)}" for k, item in v.items()) + "}"
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


def _shape(shape) -> str:
    """``(d,)``, ``(n, d)``, ``()``: a symbolic shape as Python writes a tuple."""
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _entries(n: int) -> str:
    return f"{n} {'entry' if n == 1 else 'entries'}"


def constraints(p) -> list[str]:
    """What the spec requires of a parameter's values, in words (``ndim``, sizes, ``finite``,
    ``shape_like``, ``dtype_like``, the bounds of a number)."""
    out = []
    if p.ndim:
        dims = [str(n) for n in p.ndim]
        word = "dimension" if p.ndim == (1,) else "dimensions"
        out.append(f"{' or '.join([', '.join(dims[:-1]), dims[-1]]) if len(dims) > 1 else dims[0]} "
                   f"{word}")
    if p.min_size is not None and p.max_size is not None:
        out.append(f"{p.min_size} to {_entries(p.max_size)}")
    elif p.min_size is not None:
        out.append(f"at least {_entries(p.min_size)}")
    elif p.max_size is not None:
        out.append(f"at most {_entries(p.max_size)}")
    if p.shape_like:
        out.append(f"the shape of {p.shape_like}")
    if p.dtype_like:
        out.append(f"the dtype of {p.dtype_like}")
    each = "every entry " if p.kind == "array" else ""
    for attr, words in (("minimum", "at least"), ("exclusive_minimum", "more than"),
                        ("maximum", "at most"), ("exclusive_maximum", "less than")):
        value = getattr(p, attr)
        if value is not None:
            out.append(f"{each}{words} {_number(value)}")
    if p.structure_like:
        out.append(f"the keys and leaf shapes of {p.structure_like}")
    if p.min_leaves is not None or p.max_leaves is not None:
        low, high = p.min_leaves or 1, p.max_leaves
        out.append(f"{low} to {high} leaves" if high is not None else f"at least {low} leaves")
    for pattern, leaf in p.leaves:
        said = [f"{'/'.join(leaf.dtypes)}"] + ([f"shape {_shape(leaf.shape)}"] if leaf.shape is not None else []) \
            + constraints(leaf)
        out.append(f"leaves {pattern!r}: " + ", ".join(said))
    if p.greater_than:
        out.append(f"more than {p.greater_than}")
    if p.finite:
        out.append("every entry finite (no NaN or infinity)")
    return out


def _dims(problem: Problem) -> list[str]:
    """``n from 1 to 64`` for each dim name the shapes use, in order of first use."""
    seen: dict = {}
    for p in problem.parameters:
        for spec in (p, *(leaf for _, leaf in p.leaves)):  # a tree's leaves name dims too
            for name, low, high in spec.dim_bounds:
                seen.setdefault(name, f"{name} from {low} to {high}")
    for p in problem.parameters:
        for name in p.shape or ():
            if isinstance(name, str):
                seen.setdefault(name, f"{name} (any extent)")
    return list(seen.values())


def _like(f) -> str:
    if f.structure_like:
        return f"a tree with the keys and leaf shapes of {f.structure_like}" + (
            f", every leaf {f.dtype}" if f.dtype else f", each leaf in its dtype there")
    dtype = f.dtype or (f"the dtype of {f.dtype_like}" if f.dtype_like else "any dtype")
    shape = (f", the shape of {f.shape_like}" if f.shape_like else
             f", shape {_shape(f.shape)}" if f.shape is not None else "")
    return dtype + shape


def _output(problem: Problem) -> list[str]:
    """The output: one array, or a dict and its fields, with what the spec says of each."""
    raw = problem.raw.get("output") or {}
    described = f": {raw['description']}" if raw.get("description") else ""
    if problem.output_kind == "array":
        out = [f"  one array, {_like(problem.fields[0])}{described}"]
    elif problem.output_kind == "tree":
        out = [f"  {_like(problem.fields[0])}{described}"]
    else:
        names = [f.name for f in problem.fields]
        keys = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        out = [f"  a dict with the keys {keys}{described}"]
        fields = raw.get("fields") or {}
        for f in problem.fields:
            text = (fields.get(f.name) or {}).get("description")
            out.append(f"    {f.name}: {_like(f)}" + (f": {text}" if text else ""))
    for probe in problem.probes:
        what = ("pulls each case's cotangent back through your function (jax.vjp)"
                if probe.name == "vjp" else
                "pushes each case's tangent forward through your function (jax.jvp)")
        out.append(f"  the judge also differentiates it with respect to {probe.wrt_text}: it {what}")
    return out


def tolerance_text(tol: dict) -> str:
    """``|got - expected| <= atol + rtol * |expected|`` in words (``exact`` when both are 0)."""
    close = ("exact" if not tol["rtol"] and not tol["atol"] else
             f"|got - expected| <= {_number(float(tol['atol']))} + "
             f"{_number(float(tol['rtol']))} * |expected|")
    zero = "-0.0 and 0.0 differ" if tol.get("signed_zero") else "-0.0 equals 0.0"
    return f"{close}; {zero}; NaN matches only NaN, an infinity only itself"


def _tolerance(problem: Problem) -> list[str]:
    """The problem's tolerance, then each field or probe whose own differs from it."""
    base = {**DEFAULT_TOLERANCE, **(problem.raw.get("tolerance") or {})}
    out = ["  " + tolerance_text(base)]
    for name, tol in [(f.name, f.tolerance) for f in problem.fields] + \
                     [(p.name.upper() + " probe", p.tolerance) for p in problem.probes]:
        if tol != base:
            out.append(f"  {name}: {tolerance_text(tol)}")
    return out


def _limits(problem: Problem) -> list[str]:
    lim = problem.limits
    return [f"  time: {seconds(lim['time_per_case_s'])} s per case (compilation included), "
            f"{seconds(lim['cpu_s'])} s of CPU time for the whole run",
            f"  memory: {lim['memory_mb']} MiB of address space beyond JAX's own",
            f"  output: {lim['output_kb']} KiB of printed or written output"]


def signature(problem: Problem) -> list[str]:
    """The signature section: the call, each parameter with its kind, dtype, shape, whether it
    is traced, its description and constraints, then the dims' bounds and the constraints
    between inputs."""
    params = ", ".join(p.name for p in problem.parameters)
    out = [f"  {problem.entry_point}({params})"]
    descriptions = [raw.get("description") for raw in problem.raw.get("parameters") or ()]
    for i, p in enumerate(problem.parameters):
        kind = (f"{p.kind} {'/'.join(p.dtypes)}" if p.kind == "array" else
                "tree (a dict of arrays; dicts may nest)" if p.kind == "tree" else p.kind)
        if p.shape is not None:
            kind += " of shape " + _shape(p.shape)
        described = descriptions[i] if i < len(descriptions) else None
        out.append(f"    {p.name}: {kind}, {'traced' if p.traced else 'static Python value'}"
                   + (f": {described}" if described else ""))
        said = constraints(p)
        if said:
            out.append("      " + "; ".join(said))
    dims = _dims(problem)
    if dims:
        out.append("  dims: " + ", ".join(dims))
    for c in getattr(problem, "conditions", ()):
        out.append(f"  every case: {c.text}" + (f" ({c.says})" if c.says else ""))
    return out


def sections(problem: Problem) -> dict[str, list[str]]:
    """What ``render`` shows under each heading after the statement, as lines (the rules as
    ``- id: words``, the scoring without its heading); the web page shows the same words."""
    rules_lines = [f"  - {r['id']}: {rules.describe(r)}" for r in problem.rules]
    if problem.symbolic_dims and rules.needs_program(problem.rules):
        ranges = dim_ranges(problem.parameters)
        rules_lines.append("  decided on your program traced once, never run, with "
                           + ", ".join(f"{d} as a symbol ({ranges[d][0]} <= {d}"
                                       + (f" <= {ranges[d][1]})" if ranges[d][1] is not None else ")")
                                       for d in problem.symbolic_dims)
                           + ": your code sees these dims as symbols, never as numbers, so no "
                             "Python loop, branch or int() may depend on them")
    if problem.rules and problem.probe_shapes:
        rules_lines.append("  also checked, by tracing only, at: " + "; ".join(
            f"{s.name} (" + ", ".join(f"{k} {tuple(v)}" for k, v in s.shapes.items()) + ")"
            for s in problem.probe_shapes))
    return {"signature": signature(problem), "output": _output(problem),
            "tolerance": _tolerance(problem), "limits": _limits(problem), "rules": rules_lines,
            "scoring": [line for line in scoring.describe(problem)
                        if line and not line.startswith("## ")]}


def example_lines(case) -> list[str]:
    """One example as ``render`` lists it: its inputs, probe inputs and expected outputs, each
    value as the spec holds it (a float32 1.0 is ``1.0``, not ``1``)."""
    return ([f"  {k} = {_value(v)}" for k, v in case.inputs.items()]
            # the directions the judge differentiates along: without them a VJP/JVP cannot be redone
            + [f"  probe: {k} = {_value(v)}" for k, v in case.probe_inputs.items()]
            + [f"  -> {k} = {_value(v)}" for k, v in case.expected.items()])


def render(problem: Problem, hints: int = 0) -> str:
    """The problem as text; ``hints``: how many progressive hints to reveal (0: only their
    number; more than there are: all of them, with a note)."""
    if hints < 0:
        raise ValueError(f"hints must be 0 or more, got {hints}")
    parts = sections(problem)
    out = [f"# {problem.title} ({problem.id})", "", *_page(problem), tex_plain.plain(problem.statement).rstrip(), "",
           "## Signature", *parts["signature"]]
    out += ["", "## Output", *parts["output"], "", "## Tolerance", *parts["tolerance"],
            "", "## Limits", *parts["limits"]]
    if problem.rules:
        out += ["", "## Rules (checked on the traced program)", *parts["rules"]]
    out += ["", "## Examples"]
    for case in problem.examples:
        out.append(f"### {case.name}")
        out.extend(example_lines(case))
        if case.text:
            out.append("  " + case.text.strip().replace("\n", "\n  "))
        out.append("")
    out.append(f"{plural(len(problem.hidden), 'hidden case')}; time limit "
               f"{seconds(problem.limits['time_per_case_s'])} s per case.")
    out.extend(scoring.describe(problem))
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
