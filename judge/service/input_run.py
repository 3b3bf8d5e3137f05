"""A run on the student's own input ("Run on my input" on the page): one example's inputs, as
the student edited them, graded as an example is.

``case(problem, number, inputs)`` (the API, before anything is queued) types the inputs as a
spec's ``input:`` is typed and checks them against the problem's constraints
(``judge.problem.constraints``), so an input the problem does not admit is refused at once with
the parameter and the rule it breaks. A problem with derivative probes keeps the example's
cotangent and tangent where their shapes still fit, and otherwise takes a fixed pattern of the
new shape (never all ones). ``grade(problem, submission, case, settings)`` (a grader) runs the
problem's reference on that case in a sandboxed worker for the expected output, exactly as
``judge fill`` does, then grades the submission on it as an example (``--examples-only``, the
source gate on, no hints): what is shown is what an example shows, its printed output
included. The JSON report gains ``reference``: the inputs and the reference's output, which a
passing example's report does not otherwise carry.

Nothing here runs the submission or the reference in this process.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

from judge.errors import JudgeError
from judge.problem import constraints, layout
from judge.problem.model import Case, Problem
from judge.worker import protocol

#: What the case is called in every report.
NAME = "your input"


def case(problem: Problem, number, inputs) -> Case:
    """The case of ``inputs`` (a mapping as a spec's ``input:``), run in place of example
    ``number``; JudgeError saying which parameter breaks which rule."""
    examples = problem.examples
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(examples):
        raise JudgeError(f'"example" must be the number of one of the problem\'s examples, from 0 '
                         f"to {len(examples) - 1}")
    if _depth(inputs) > protocol.MAX_DEPTH:  # more than the worker's channel carries
        raise JudgeError(f"the inputs are nested more than {protocol.MAX_DEPTH} deep")
    try:
        typed = constraints.check_inputs(problem.parameters, inputs)
    except constraints.CaseDataError as exc:
        where = ".".join(str(s) for s in exc.steps[1:]) or "the inputs"
        raise JudgeError(f"{where}: {exc}") from None
    except RecursionError:
        raise JudgeError("the inputs are nested too deeply") from None
    base = examples[number]
    probe = {}
    for slot in layout.input_slots(problem, typed):
        given = base.probe_inputs.get(slot.key)
        if given is not None and np.shape(given) == tuple(slot.shape or ()):
            probe[slot.key] = given
        else:  # 0.5, 1.0, -1.5, 2.0, ... : neither all ones nor symmetric
            size = int(np.prod(slot.shape or ()))
            pattern = np.array([0.5, 1.0, -1.5, 2.0, -0.25])[np.arange(size) % 5]
            probe[slot.key] = pattern.reshape(slot.shape or ()).astype(slot.dtype)
    return Case(index=0, name=NAME, visibility="example", inputs=typed, expected={},
                text="", probe_inputs=probe, number=number)


def _depth(value, limit: int = 64) -> int:
    """How deep mappings and lists nest in ``value`` (counted up to ``limit``)."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def grade(problem: Problem, submission, case_: Case, settings) -> dict:
    """The JSON report (as a dict) of ``submission`` on ``case_``, with ``reference``."""
    from judge import rules
    from judge.grade import example_diff, grading
    from judge.reports import json_report

    outputs = grading.reference_outputs(rules.for_reference(problem, [case_]), [case_],
                                        sandbox=settings)
    filled = replace(case_, expected=outputs[case_.index])
    one = replace(problem, cases=(filled,))
    result = grading.grade(one, submission, sandbox=settings, source_gate=True,
                           examples_only=True, hints=False)
    report = json.loads(json_report.render(result))
    expected = example_diff.as_returned({"expected": example_diff.plain(dict(filled.expected))},
                                        problem, filled)["expected"]
    report["reference"] = json_report.finite({"inputs": example_diff.plain(dict(filled.inputs)),
                                              "expected": expected})
    return report

