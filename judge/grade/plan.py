"""What grading needs of a problem, resolved once per grade: ``resolve(problem, cases)`` walks
the problem model (``judge.problem.layout``, ``judge.problem.model``) and asks the rules which
programs they read (``judge.rules``) a single time, and every stage after it (the worker's
request, the rules' traces and their worker, the verdicts, a failing example's report) reads
the ``Plan`` instead of going back to the model or the rules for every case.

A ``Plan`` is plain data: the problem's dims and their ranges, and its symbolic dims; for
each case a ``CasePlan`` (where each value of its output and of its probes' results sits, its
``layout.Slot``s; its input shapes; whether its output holds trees; its probe inputs as the
worker takes them; the program the rules decide on for it, traced with the symbolic dims, with
its key, which the cases of one program share, and the ``symbolic`` entry the worker traces it
with); and the programs the rules want traced without running (``Wanted``: the spec's probe
shapes, a rule's own sizes and the traces beside each case, each under the index of the
tracing worker's case that traces it). Decides nothing, runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from judge import rules
from judge.memo import ByIdentity
from judge.problem import layout
from judge.problem.model import Case, Problem, dim_ranges


@dataclass(frozen=True)
class Wanted:
    """A program the rules want traced without running."""

    origin: object                 # "probe", "symbolic" (``judge.grade.corners``), or the index
                                   # of the rule that asked
    trace: rules.AbstractTrace
    index: int                     # the tracing worker's case index for it
    owner: int | None              # the case it was made for, or None


@dataclass(frozen=True)
class CasePlan:
    """One case, resolved."""

    case: Case
    outputs: tuple[layout.Slot, ...]               # the output's leaves
    probes: Mapping[str, tuple[layout.Slot, ...]]  # each probe's results, by probe name
    probe_args: Mapping                            # its probe inputs, nested as the worker takes them
    shapes: Mapping[str, tuple]                    # each array parameter's shape
    nested: bool                                   # the output holds trees (``layout.nested``)
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
    #: the programs the rules want traced without running (none when no rule reads one)
    wanted: tuple[Wanted, ...] = ()

    def of(self, case) -> CasePlan:
        """The case's plan (resolved now if the plan was made without it)."""
        found = self.cases.get(case.index)
        return found if found is not None and found.case is case else case_plan(self.problem, case)

    def beside(self, case) -> tuple[Wanted, ...]:
        """The traces the rules want beside ``case``."""
        return tuple(w for w in self.wanted if w.owner == case.index)

    @property
    def once(self) -> tuple[Wanted, ...]:
        """The traces the rules want once for the whole program (no case's own)."""
        return tuple(w for w in self.wanted if w.owner is None)


def resolve(problem: Problem, cases, *, traces: bool = True) -> Plan:
    """The plan of grading ``cases`` of ``problem``; with ``traces``, the programs the rules
    want traced without running too (drawn at random where a rule says so: resolve once per
    grade)."""
    ranges = dim_ranges(problem.parameters)
    planned = {c.index: case_plan(problem, c) for c in cases}
    return Plan(problem=problem, ranges=ranges,
                symbols={d: ranges[d] for d in problem.symbolic_dims if d in ranges},
                cases=planned, wanted=wanted(problem, cases, planned) if traces else ())


def traced_arrays(problem: Problem) -> tuple[str, ...]:
    """The traced array parameters, in the spec's order."""
    return tuple(p.name for p in problem.parameters if p.traced and p.kind == "array")


#: (problem, case) -> its plan: the same for every submission of the problem
_PLANS = ByIdentity()


def case_plan(problem: Problem, case) -> CasePlan:
    """One case's plan (``CasePlan``), made once per problem and case (shared: read-only)."""
    return _PLANS.get((problem, case), lambda: _case_plan(problem, case))


def _case_plan(problem: Problem, case) -> CasePlan:
    inputs = case.inputs
    probe_args = (layout.nest(layout.input_slots(problem, inputs), case.probe_inputs)
                  if case.probe_inputs else {})
    shapes = {p.name: tuple(np.shape(inputs[p.name])) for p in problem.parameters if p.kind == "array"}
    outputs = tuple(layout.output_slots(problem, inputs))
    probes = {p.name: tuple(layout.probe_slots(problem, inputs, p)) for p in problem.probes}
    nested = layout.nested(problem)
    trace = shared_trace(problem, inputs)
    if trace is None:
        return CasePlan(case=case, outputs=outputs, probes=probes, probe_args=probe_args,
                        shapes=shapes, nested=nested)
    key = rules.trace_key(trace)
    symbolic = {"key": key,
                "shapes": {**{n: list(trace.shapes[n]) for n in traced_arrays(problem)},
                           **{n: extents_data(tree) for n, tree in trace.trees.items()}},
                "symbols": {k: list(v) for k, v in trace.symbols.items()}}
    return CasePlan(case=case, outputs=outputs, probes=probes, probe_args=probe_args,
                    shapes=shapes, nested=nested, trace=trace, key=key, symbolic=symbolic)


def shared_trace(problem: Problem, inputs) -> rules.AbstractTrace | None:
    """The program the rules decide on for a case with ``inputs``, traced with the symbolic
    dims by the case's worker (``rules.symbolic_trace``); None where there is none: the
    custom_vjp rule measures each case's own trace, so no program is shared."""
    return None if problem.rule("custom_vjp_grads") else rules.symbolic_trace(problem, inputs)


def wanted(problem: Problem, cases, planned: Mapping[int, CasePlan] | None = None) -> tuple[Wanted, ...]:
    """Every program the rules want traced without running for grading ``cases``: the spec's
    probe shapes and a rule's own sizes, then the traces beside each case (what a rule draws
    at random for them drawn once for all the cases: ``rules.case_traces``). ``planned``: the
    cases' plans, by index, where already resolved."""
    planned = planned if planned is not None else {c.index: case_plan(problem, c) for c in cases}
    once = [(origin, trace, None) for origin, trace in rules.abstract_traces(problem)]
    drawn: dict = {}
    # a case whose worker reports the program it ran, traced with the symbolic dims, is not
    # traced again here: the rules compare that program with the traces beside it
    beside = [(i, trace, case.index) for case in cases
              for i, trace in rules.case_traces(problem, case.inputs, drawn,
                                                planned[case.index].trace is not None)]
    # the same program asked for twice (a rule's trace beside one case equal to its trace beside
    # another) is traced once: both read one worker index. The traces beside the cases are
    # numbered in the order of their programs, not of the cases: the tracing worker's order
    # does not tell which one a case asked for as its own and which one was drawn at random
    keys = {id(trace): (rules.trace_key(trace), tuple(sorted(trace.symbols.items())))
            for _, trace, _ in once + beside}
    made: dict = {}
    for _, trace, _ in once:
        made.setdefault(keys[id(trace)], len(made))
    for key in sorted({keys[id(trace)] for _, trace, _ in beside} - made.keys(), key=repr):
        made[key] = len(made)
    base = len(problem.cases)
    return tuple(Wanted(origin, trace, base + made[keys[id(trace)]], owner)
                 for origin, trace, owner in once + beside)


def extents_data(tree):
    """A tree's leaves' extents as the worker takes them (``judge.worker.symbolic``): nested
    dicts as the tree, each leaf a list of ints and dim names."""
    if isinstance(tree, dict):
        return {key: extents_data(item) for key, item in tree.items()}
    return list(tree)
