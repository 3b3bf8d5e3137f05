"""The programs the rules want traced without running (``judge.rules``), the worker run that
traces them, and what it reported as evidence for the grading module.

Four kinds, all sent as cases with ``abstract`` shapes (``protocol``): the program the rules
decide on, traced with the spec's ``symbolic_dims`` as symbols, once per combination of the
other dims and static values the cases use (``rules.symbolic_trace``); the spec's probe
shapes; the traces a rule asks for once (``no_unrolling`` at explicit sizes); and the traces a
rule asks for beside each case (``no_unrolling`` at another extent of a dim that is not
symbolic, drawn at random). They
are traced by a worker of their own, which never sees a case's values and keeps no memory of
the cases' run: a submission cannot answer the judge's traces with what it saw in the cases (a
loop padded to the extent of the case it just ran, say). The plan is made once per grade.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge import rules
from judge.grade import outcome
from judge.worker import protocol


#: A trace's wall clock only stops one that never ends: at least this, or three times a
#: case's limit. It decides no rule: a trace stopped by it is TLE ``trace_time_limit``.
TRACE_TIMEOUT_S = 120


@dataclass(frozen=True)
class Wanted:
    origin: object                 # "symbolic", "probe", or the index of the rule that asked
    trace: rules.AbstractTrace
    index: int                     # the worker's case index for it
    owner: int | None              # the case it was made for, or None
    owners: tuple = ()             # a symbolic trace: every case it decides for


def _key(trace) -> str:
    return repr((sorted(trace.shapes.items()), sorted((k, repr(v)) for k, v in trace.values.items()),
                 sorted(trace.dtypes.items())))


def plan(problem, cases) -> list[Wanted]:
    """Every abstract trace for grading ``cases``; call once per grade (case traces may be
    drawn at random)."""
    found = [(origin, trace, None, ()) for origin, trace in rules.abstract_traces(problem)]
    symbolic: dict = {}
    for case in cases:
        trace = rules.symbolic_trace(problem, case.inputs)
        if trace is not None:
            symbolic.setdefault(_key(trace), (trace, []))[1].append(case.index)
        found += [(i, trace, case.index, ()) for i, trace in rules.case_traces(problem, case.inputs)]
    found += [("symbolic", trace, None, tuple(owners)) for trace, owners in symbolic.values()]
    # the same program asked for twice (a rule's trace beside a case equal to the case's
    # symbolic one, or to another case's) is traced once: both read one worker index
    base, made = len(problem.cases), {}
    return [Wanted(origin, trace, made.setdefault((_key(trace), tuple(sorted(trace.symbols.items()))),
                                                  base + len(made)), owner, owners)
            for origin, trace, owner, owners in found]


def timeout(problem) -> float:
    return max(TRACE_TIMEOUT_S, 3 * problem.limits["time_per_case_s"])


def request(problem, base: dict, wanted: list[Wanted]) -> dict | None:
    """The request of the worker that traces ``wanted``: the submission's request without its
    cases, instrument or probes, holding only shapes and static values."""
    if not wanted:
        return None
    # a tree travels whole among the values: it is traced at its own leaves' shapes
    traced = [p.name for p in problem.parameters if p.traced and p.kind == "array"]
    once: dict = {}
    for w in wanted:  # each index once
        once.setdefault(w.index, w)
    entries = [{"index": w.index, "args": protocol.encode_args(w.trace.values),
                "abstract": {name: {"shape": list(w.trace.shapes[name]), "dtype": w.trace.dtypes[name]}
                             for name in traced},
                **({"symbols": {k: list(v) for k, v in w.trace.symbols.items()}} if w.trace.symbols else {})}
               for w in once.values()]
    # the derivatives the case's worker takes are traced into these programs too
    # nothing is evaluated there, so nothing is compiled to report (``report_ops``)
    return {**base, "grad_rule": None, "probes": None, "derivative": base.get("probes"),
            "structure": False, "public_cases": 0, "report_ops": False, "cases": entries}


def evidence(w: Wanted, run, describe) -> rules.TraceEvidence | rules.Breach:
    """What the tracing worker ``run`` reported for ``w``: the trace as evidence for the rules,
    or the breach its failure is (a trace that never ended, a dim read as a number, ...)."""
    return _evidence(w, run, describe)


def _evidence(w: Wanted, run, describe) -> rules.TraceEvidence | rules.Breach:
    report = run.cases.get(w.index) if run is not None else None
    if report is None and run is not None and outcome.killed_from_outside(run):
        return rules.Breach("worker_killed", f"the worker tracing the rules' programs was killed "
                                             f"by signal {run.signal}, which the judge did not "
                                             f"send: the judge's fault, not the submission's")
    if report is None:
        return rules.Breach("trace_time_limit", f"the rules could not be checked: the program "
                                                f"{w.trace.name if w.trace.symbols else 'traced at ' + w.trace.name} "
                                                f"did not finish tracing (nothing of it runs)")
    if w.trace.symbols and report.error is not None:
        return _symbolic_failure(w, report.error, describe)
    if report.error is not None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} failed: {describe(report.error)}")
    return rules.TraceEvidence(label=w.trace.name, shapes=w.trace.shapes, program=report.program,
                               report=report, abstract=True, symbols=w.trace.symbols)


def _first_line(text: str) -> str:
    line = (text or "").strip().replace("\\n", "\n").splitlines()[0] if (text or "").strip() else ""
    return line[:200] + (" [...]" if len(line) > 200 else "")


def _symbolic_failure(w: Wanted, error, describe) -> rules.Breach:
    """Why the program could not be traced with symbolic dims, naming the dim and the line."""
    symbols = list(w.trace.symbols)
    where = (f" at line {error.line}" if error.line else "") + (f": `{error.source.strip()}`" if error.source else "")
    if error.kind == "symbolic":
        text = error.message or ""
        named = [d for d in symbols if re.search(rf"(?<![A-Za-z0-9_]){re.escape(d)}(?![A-Za-z0-9_])", text)]
        dims = named or symbols
        told = " or ".join(dims)
        return rules.Breach("dim_read_as_number",
                            f"your code reads the dim {told} as a number{where}; the rules are "
                            f"decided on your program traced with {', '.join(symbols)} as a symbol "
                            f"(any extent in its range), so no Python loop, branch, int(), "
                            f"float(), len() or reshape may depend on {told}'s value: use "
                            f"jax.vmap, lax.scan or array operations (a mean divides by "
                            f"x.shape[0] or uses jnp.mean) ({error.type}: {_first_line(text)})")
    if error.kind == "concretization":
        return rules.Breach("traced_value_concretized",
                            f"{w.trace.name}: a traced value was turned into a Python value or "
                            f"NumPy array{where} ({error.type})")
    return rules.Breach("symbolic_trace_failed", f"the rules could not be checked: the program "
                                                 f"{w.trace.name} failed: {describe(error)}")


def program_breach(problem, wanted: list[Wanted], run, describe) -> rules.Breach | None:
    """The rules' verdict on the traces made once (probe shapes, a rule's own sizes): a breach
    there is the program's, so it applies to every case that ran cleanly. ``run``: the tracing
    worker's; ``describe(error)`` words a worker error."""
    found = []
    for w in wanted:
        if w.owner is None and w.origin != "symbolic":
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            found.append((w.origin, got))
    return rules.check_abstract(problem, found) if found else None


def related(problem, wanted: list[Wanted], case, run, describe, decided: dict | None = None
            ) -> dict | rules.Breach:
    """The traces made beside ``case``, by the index of the rule that asked for them, and the
    program traced with symbolic dims for it under ``"symbolic"`` (the case's own program must
    be that one instantiated, ``rules.check_instance``); or the rules' breach on it.
    ``decided`` (one dict per grade) keeps the rules' decision on each symbolic trace, which
    every case it was traced for shares."""
    by_rule: dict = {}
    decided = {} if decided is None else decided
    for w in wanted:
        if w.origin == "symbolic" and case.index in w.owners:
            if w.index not in decided:
                got = _evidence(w, run, describe)
                decided[w.index] = got if isinstance(got, rules.Breach) else (
                    rules.check_symbolic(problem, got) or got)
            got = decided[w.index]
            if isinstance(got, rules.Breach):
                return got
            by_rule["symbolic"] = got
    for w in wanted:
        if w.owner == case.index:
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            by_rule.setdefault(w.origin, []).append(got)
    return {k: v if k == "symbolic" else tuple(v) for k, v in by_rule.items()}
