"""What grading needs of a problem, resolved once per grade: ``resolve(problem, cases)`` walks
the problem model (``judge.problem.layout``, ``judge.problem.model``) and the rules' choice of
program (``judge.rules.symbolic_trace``) a single time, and the stages after it (the worker's
request, the rules' traces, the verdicts) read the ``Plan`` instead of going back to the model
for every case.

A ``Plan`` holds the problem's dims and their ranges, its symbolic dims and its probes, and for
each case a ``CasePlan``: where each value of its output and of its probes' results sits (its
``layout.Slot``s), its probe inputs as the worker takes them, and the program the rules decide
on for it (traced with the symbolic dims: the trace, its key, which the cases of one program
share, and the ``symbolic`` entry the worker traces it with). Decides nothing, runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from judge import rules
from judge.problem import layout
from judge.problem.model import Case, Problem, dim_ranges


@dataclass(frozen=True)
class CasePlan:
    """One case, resolved."""

    case: Case
    outputs: tuple[layout.Slot, ...]               # the output's leaves
    probes: Mapping[str, tuple[layout.Slot, ...]]  # each probe's results, by probe name
    probe_args: Mapping                            # its probe inputs, nested as the worker takes them
    #: the program the rules decide on: traced with the symbolic dims (None: at the case's own
    #: shapes), its key (one program per key) and the request's ``symbolic`` entry for it
    trace: rules.AbstractTrace | None = None
    key: str | None = None
    symbolic: Mapping | None = None


@dataclass(frozen=True)
class Plan:
    problem: Problem
    ranges: Mapping[str, tuple]     # every dim -> (lowest, highest or None)
    symbols: Mapping[str, tuple]    # each symbolic dim -> its range
    cases: Mapping[int, CasePlan]   # by case index

    def of(self, case) -> CasePlan:
        """The case's plan (resolved now if the plan was made without it)."""
        found = self.cases.get(case.index)
        return found if found is not None and found.case is case else case_plan(self.problem, case)


def resolve(problem: Problem, cases) -> Plan:
    """The plan of grading ``cases`` of ``problem``."""
    ranges = dim_ranges(problem.parameters)
    return Plan(problem=problem, ranges=ranges,
                symbols={d: ranges[d] for d in problem.symbolic_dims if d in ranges},
                cases={c.index: case_plan(problem, c) for c in cases})


def case_plan(problem: Problem, case) -> CasePlan:
    """One case's plan (``CasePlan``)."""
    inputs = case.inputs
    probe_args = (layout.nest(layout.input_slots(problem, inputs), case.probe_inputs)
                  if case.probe_inputs else {})
    planned = CasePlan(case=case, outputs=tuple(layout.output_slots(problem, inputs)),
                       probes={p.name: tuple(layout.probe_slots(problem, inputs, p)) for p in problem.probes},
                       probe_args=probe_args)
    # the custom_vjp rule measures each case's own trace: no program is shared
    trace = None if problem.rule("custom_vjp_grads") else rules.symbolic_trace(problem, inputs)
    if trace is None:
        return planned
    key = rules.trace_key(trace)
    traced = [p.name for p in problem.parameters if p.traced and p.kind == "array"]
    symbolic = {"key": key,
                "shapes": {**{n: list(trace.shapes[n]) for n in traced},
                           **{n: extents_data(tree) for n, tree in trace.trees.items()}},
                "symbols": {k: list(v) for k, v in trace.symbols.items()}}
    return CasePlan(case=case, outputs=planned.outputs, probes=planned.probes,
                    probe_args=probe_args, trace=trace, key=key, symbolic=symbolic)


def extents_data(tree):
    """A tree's leaves' extents as the worker takes them (``judge.worker.symbolic``): nested
    dicts as the tree, each leaf a list of ints and dim names."""
    if isinstance(tree, dict):
        return {key: extents_data(item) for key, item in tree.items()}
    return list(tree)
