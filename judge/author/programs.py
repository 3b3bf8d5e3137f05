"""`judge check`'s ``programs`` check: how many programs one grade traces.

A worker traces a submission once per key and evaluates that program at every case of the key
(``judge.worker.traced_once``). The key is what the trace depends on: each static value exactly
and each concrete dim, while the spec's ``symbolic_dims`` are symbols that every extent shares
(``judge.grade.plan``); with no program traced with symbols, every shape and dtype of the traced
inputs too. Each key is a trace of the submission's Python, with the judge's derivatives in it,
for every submission graded: the cases' static configurations, more than their number, are
what a grade costs. This check counts them over the examples and the hidden cases, and warns
above ``LIMIT``. It reads the spec only (nothing runs).
"""

from __future__ import annotations

import numpy as np

from judge.author.findings import WARNING
from judge.grade import plan
from judge.grade.verdicts import plural
from judge.problem import spec
from judge.problem.model import dim_ranges

#: more distinct programs than this in one grade is a warning
LIMIT = 64


def _static(value) -> tuple:
    """A static value exactly, as the worker tells two apart (its type, dtype, shape and bytes)."""
    array = np.asarray(value)
    if array.dtype == object:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, str(array.dtype), array.shape, array.tobytes().hex())


def _leaves(value) -> list:
    """A tree's structure and leaves' shapes and dtypes (an array: its own)."""
    if isinstance(value, dict):
        return [(key, _leaves(value[key])) for key in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [_leaves(item) for item in value]]
    array = np.asarray(value)
    return [tuple(array.shape), str(array.dtype)]


def case_key(problem, case) -> str:
    """The key of the program ``case`` runs: the one the rules trace with symbolic dims where
    there is one (``plan.case_plan``), else the case's static signature."""
    found = plan.case_plan(problem, case)
    if found.key is not None:
        return found.key
    inputs = case.inputs
    return repr([(p.name, _leaves(inputs[p.name]) if p.traced else _static(inputs[p.name]))
                 for p in problem.parameters])


def keys(problem) -> dict[str, list]:
    """Each distinct key with the cases that run its program, in the cases' order."""
    found: dict[str, list] = {}
    for case in problem.cases:
        found.setdefault(case_key(problem, case), []).append(case)
    return found


def _varies(problem) -> list[str]:
    """What tells the programs apart: the static parameters and the dims that are not symbolic,
    or every shape where no program is traced with symbols."""
    statics = [p.name for p in problem.parameters if not p.traced]
    if plan.case_plan(problem, problem.cases[0]).key is None:
        return statics + ["shape of the inputs"]
    return statics + sorted(set(dim_ranges(problem.parameters)) - set(problem.symbolic_dims))


def check_programs(report, loaded) -> None:
    """A ``programs`` check: its summary counts the distinct programs among the cases; above
    ``LIMIT``, a warning saying why that costs time."""
    problem = loaded.problem
    if not problem.cases:
        return
    check = report.add("programs")
    found = keys(problem)
    varies = _varies(problem)
    what = ", ".join(varies)
    check.summary = (f"one grade traces {plural(len(found), 'program')} for "
                     f"{plural(len(problem.cases), 'case')}, one per distinct {what}" if varies else
                     f"one grade traces 1 program for {plural(len(problem.cases), 'case')}: no "
                     f"static value or concrete dim tells them apart")
    if len(found) > LIMIT:
        report.find(check, WARNING, problem.path,
                    f"the cases make {len(found)} distinct programs (more than {LIMIT}): each "
                    f"distinct {what} is a program traced, with its derivatives, for every "
                    f"submission graded; draw the cases from fewer static configurations, or "
                    f"make dims symbolic (symbolic_dims), and vary what costs nothing",
                    spec.line_of(loaded.nodes, ["hidden"]))
