"""The programs the rules want traced without running (``judge.rules``), the worker run that
traces them, and what it reported as evidence for the grading module.

Three kinds, all sent as cases with ``abstract`` shapes (``protocol``): the spec's probe shapes,
the traces a rule asks for once (``no_unrolling`` at its sizes), and the traces a rule asks for
beside each case (``no_unrolling`` at another extent of the case's dim, drawn at random). They
are traced by a worker of their own, which never sees a case's values and keeps no memory of
the cases' run: a submission cannot answer the judge's traces with what it saw in the cases (a
loop padded to the extent of the case it just ran, say). The plan is made once per grade.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge import rules
from judge.worker import protocol


@dataclass(frozen=True)
class Wanted:
    origin: object                 # "probe", or the index of the rule that asked
    trace: rules.AbstractTrace
    index: int                     # the worker's case index for it
    owner: int | None              # the case it was made for, or None


def plan(problem, cases) -> list[Wanted]:
    """Every abstract trace for grading ``cases``; call once per grade (case traces may be
    drawn at random)."""
    found = [(origin, trace, None) for origin, trace in rules.abstract_traces(problem)]
    for case in cases:
        found += [(i, trace, case.index) for i, trace in rules.case_traces(problem, case.inputs)]
    base = len(problem.cases)
    return [Wanted(origin, trace, base + k, owner) for k, (origin, trace, owner) in enumerate(found)]


def request(problem, base: dict, wanted: list[Wanted]) -> dict | None:
    """The request of the worker that traces ``wanted``: the submission's request without its
    cases, instrument or probes, holding only shapes and static values."""
    if not wanted:
        return None
    traced = [p.name for p in problem.parameters if p.traced]
    entries = [{"index": w.index, "args": protocol.encode_args(w.trace.values),
                "abstract": {name: {"shape": list(w.trace.shapes[name]), "dtype": w.trace.dtypes[name]}
                             for name in traced}}
               for w in wanted]
    return {**base, "grad_rule": None, "probes": None, "structure": False, "public_cases": 0,
            "cases": entries}


def _evidence(w: Wanted, run, describe) -> rules.TraceEvidence | rules.Breach:
    report = run.cases.get(w.index) if run is not None else None
    if report is None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} did not finish")
    if report.error is not None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} failed: {describe(report.error)}")
    return rules.TraceEvidence(label=w.trace.name, shapes=w.trace.shapes, program=report.program,
                               report=report, abstract=True)


def program_breach(problem, wanted: list[Wanted], run, describe) -> rules.Breach | None:
    """The rules' verdict on the traces made once (probe shapes, a rule's own sizes): a breach
    there is the program's, so it applies to every case that ran cleanly. ``run``: the tracing
    worker's; ``describe(error)`` words a worker error."""
    found = []
    for w in wanted:
        if w.owner is None:
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            found.append((w.origin, got))
    return rules.check_abstract(problem, found) if found else None


def related(wanted: list[Wanted], case, run, describe) -> dict | rules.Breach:
    """The traces made beside ``case``, by the index of the rule that asked for them."""
    by_rule: dict = {}
    for w in wanted:
        if w.owner == case.index:
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            by_rule.setdefault(w.origin, []).append(got)
    return {k: tuple(v) for k, v in by_rule.items()}
