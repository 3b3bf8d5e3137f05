"""Hidden cases that are not evaluated because the rules refuse their program.

Where the rules decide on a program traced with symbolic dims (``judge.grade.plan``), every case
of that program's key is refused whatever its values once the rules refuse the program, so
evaluating it would be wasted work. The request marks those of the hidden cases ``decide``
(``flag``); before the first of them of a key is evaluated, the worker sends the program the key
traced, and the judge answers with its own rules (``decider``: the same decision
``traces.symbolic`` takes on a case's program, from the program alone, before any rule's trace
beside the case is read). A key refused that way reports its ``decide`` cases ``skipped``
(``judge.run.asked`` checks that the judge refused that very program); grading judges such a case
as one that ran that program, up to the rules: its output's form, then the rules' refusal.

Examples are always evaluated: what they print and compute is shown, and a hint is matched on
their outputs (``judge.grade.hints``). Decides nothing itself; runs nothing.
"""

from __future__ import annotations

from judge import rules
from judge.grade import traces
from judge.grade.plan import Plan
from judge.run.boundary import CaseReport


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
    cases is evaluated."""

    def decide(index: int, program, trace) -> bool:
        case = planned.cases.get(index)
        if case is None or case.trace is None:
            return False
        report = CaseReport(index=index, time_s=0.0, stdout="", stderr="", trace=trace,
                            program=program)
        return isinstance(traces.symbolic(problem, case, report, {}), rules.Breach)

    return decide
