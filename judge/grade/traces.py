"""The programs the rules want traced without running (``judge.rules``), and what the worker
reported of them as evidence for the grading module.

Three kinds, all sent to the worker as cases with ``abstract`` shapes (``protocol``) after the
real cases, with indices past every case's so they never collide: the spec's probe shapes, the
traces a rule asks for once (``no_unrolling`` at its sizes), and the traces a rule asks for
beside each case (``no_unrolling`` at another extent of the case's dim).
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


def wanted(problem, cases) -> list[Wanted]:
    """Every abstract trace for grading ``cases``, in a fixed order."""
    found = [(origin, trace, None) for origin, trace in rules.abstract_traces(problem)]
    for case in cases:
        found += [(i, trace, case.index) for i, trace in rules.case_traces(problem, case.inputs)]
    base = len(problem.cases)
    return [Wanted(origin, trace, base + k, owner) for k, (origin, trace, owner) in enumerate(found)]


def request_entries(problem, cases) -> list[dict]:
    traced = [p.name for p in problem.parameters if p.traced]
    return [{"index": w.index, "args": protocol.encode_args(w.trace.values),
             "abstract": {name: {"shape": list(w.trace.shapes[name]), "dtype": w.trace.dtypes[name]}
                          for name in traced}}
            for w in wanted(problem, cases)]


def _evidence(w: Wanted, run, describe) -> rules.TraceEvidence | rules.Breach:
    report = run.cases.get(w.index)
    if report is None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} did not finish")
    if report.error is not None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} failed: {describe(report.error)}")
    return rules.TraceEvidence(label=w.trace.name, shapes=w.trace.shapes, program=report.program,
                               report=report, abstract=True)


def program_breach(problem, cases, run, describe) -> rules.Breach | None:
    """The rules' verdict on the traces made once (probe shapes, a rule's own sizes): a breach
    there is the program's, so it applies to every case that ran cleanly. ``describe(error)``
    words a worker error."""
    found = []
    for w in wanted(problem, cases):
        if w.owner is None:
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            found.append((w.origin, got))
    return rules.check_abstract(problem, found) if found else None


def related(problem, cases, case, run, describe) -> dict | rules.Breach:
    """The traces made beside ``case``, by the index of the rule that asked for them."""
    by_rule: dict = {}
    for w in wanted(problem, cases):
        if w.owner == case.index:
            got = _evidence(w, run, describe)
            if isinstance(got, rules.Breach):
                return got
            by_rule.setdefault(w.origin, []).append(got)
    return {k: tuple(v) for k, v in by_rule.items()}
