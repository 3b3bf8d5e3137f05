"""Hidden cases that are not evaluated because the rules refuse their program.

Where the rules decide on a program traced with symbolic dims (``judge.grade.plan``), every case
of that program's key is refused whatever its values once the rules refuse the program, so
evaluating it would be wasted work. The request marks those of the hidden cases ``decide``
(``flag``); before the first of them of a key is evaluated, the worker sends the program the key
traced, and the judge answers with its own rules (``decider``: the same decision
``traces.symbolic`` takes on a case's program, from the program alone; or, where the rules'
traces beside the cases came first in the same worker run and are all reported, the decision
grading takes on each of the key's ``decide`` cases with its traces beside it, which must refuse
every one of them, for one reason whether or not a probe of the program failed when it ran). A key
refused that way reports its ``decide`` cases ``skipped``
(``judge.run.asked`` checks that the judge refused that very program); grading judges such a case
as one that ran that program, up to the rules: its output's form, then the rules' refusal.

Examples are always evaluated: what they print and compute is shown, and a hint is matched on
their outputs (``judge.grade.hints``). Decides nothing itself; runs nothing.
"""

from __future__ import annotations

from dataclasses import replace

from judge import rules
from judge.grade import traces
from judge.grade.plan import CasePlan, Plan
from judge.run.boundary import CaseReport, ErrorReport, Probes


def flag(request: dict, planned: Plan) -> dict:
    """``request`` with ``decide`` on each hidden case that runs a program the rules decide on,
    traced with symbolic dims (``plan.CasePlan.symbolic``)."""
    if not request.get("structure"):
        return request

    def marked(entry: dict) -> bool:
        case = planned.cases.get(entry["index"])
        return (case is not None and case.case.visibility == "hidden"
                and case.symbolic is not None and entry.get("symbolic") is not None)

    return {**request, "cases": [{**c, "decide": True} if marked(c) else c for c in request["cases"]]}


def decider(problem, planned: Plan):
    """The judge's answer to the program a ``decide`` case is about to run (``WorkerRun.decide``):
    true where the rules refuse it (``traces.symbolic`` on it), so none of its key's ``decide``
    cases is evaluated; or where they refuse every ``decide`` case of its key with the traces
    beside it (``refused_beside``), read from ``reported``: the reports of the worker run so far
    (``WorkerRun.cases``; the traces the rules asked for are among them where that run traced
    them, before any hidden case). Its ``planned_with(wanted)`` answers for a run whose traces
    were ``wanted`` (a stored run replayed: what was drawn at random then)."""

    def decide(index: int, program, trace, reported=None) -> bool:
        case = planned.cases.get(index)
        if case is None or case.trace is None:
            return False
        report = CaseReport(index=index, time_s=0.0, stdout="", stderr="", trace=trace,
                            program=program)
        found = traces.symbolic(problem, case, report, {})
        if isinstance(found, rules.Breach):
            return True
        return found is not None and reported is not None and refused_beside(
            problem, planned, case.key, report, reported)

    decide.planned_with = lambda wanted: decider(problem, replace(planned, wanted=tuple(wanted)))
    return decide


#: A probe that failed when the program ran: the rules read such a program differently
#: (``no_unrolling`` does not compare it with the traces beside it)
_FAILED_PROBE = Probes(values={}, errors={"probe": ErrorReport(kind="exception", type="Exception",
                                                               message="")})


class _Reported:
    """A worker run's reports so far, where ``traces.related`` reads a run's."""

    def __init__(self, cases):
        self.cases = cases


def refused_beside(problem, planned: Plan, key: str, report: CaseReport, reported) -> bool:
    """Do the rules refuse every hidden case of ``key`` that may be skipped (each one ``flag``
    sends with ``decide``), reading the program of ``report`` with the traces beside each case,
    every one of them in ``reported`` (the worker run's reports so far)? Decided as grading
    decides on such a case (``judge.grade.grading``): a trace beside it that failed, else the
    rules on the program with those traces. Refused only where the rules refuse it for the same
    reason whether or not a probe of the program (where the problem has probes) failed when it
    ran: ``no_unrolling`` does not compare such a program with its traces (a hidden case's
    message is a fixed text for its reason)."""
    run = _Reported(reported)
    same = [c for c in planned.cases.values() if c.key == key and _flagged(c)]
    if not same:
        return False
    done = set()  # the traces beside a case decided on already: the cases of one key share
    for case in same:  # their program (one trace, one key), so those beside decide alone
        beside = planned.beside(case.case)
        if not beside or any(w.index not in reported for w in beside):
            return False  # nothing traced beside it, or not in this run: evaluated
        asked = tuple((w.origin, w.index) for w in beside)
        if asked in done:
            continue
        done.add(asked)
        related = traces.related(planned, case.case, run, str)
        if isinstance(related, rules.Breach):
            continue
        found = []
        variants = (report, replace(report, probes=_FAILED_PROBE)) if problem.probes else (report,)
        for variant in variants:
            evidence = traces.symbolic(problem, case, variant, {})
            if not isinstance(evidence, rules.TraceEvidence):
                return False
            found.append(rules.check_case(problem, replace(evidence, related_by_rule=related)))
        if any(b is None for b in found) or len({b.reason for b in found}) > 1:
            return False
    return True


def _flagged(case: CasePlan) -> bool:
    """Is ``case`` one that ``flag`` sends with ``decide``?"""
    return case.case.visibility == "hidden" and case.symbolic is not None
