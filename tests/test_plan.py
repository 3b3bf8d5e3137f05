"""The plan of a grade (``judge.grade.plan``): a problem resolved once into what grading needs,
each case's slots, probe inputs and the program the rules decide on for it, which the request,
the rules' traces and the verdicts read instead of going back to the problem model per case."""

from __future__ import annotations

import dataclasses

import pytest

from tests.helpers import ROOT
from judge import rules
from judge.grade import grading, plan, request
from judge.grade.verdicts import Verdict
from judge.problem import layout, spec


@pytest.fixture(scope="module")
def pairwise():
    return spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")


@pytest.fixture(scope="module")
def loss_and_grads():
    return spec.load(ROOT / "problems" / "loss_and_grads.yaml")


def test_a_case_is_resolved_into_its_slots_probe_inputs_and_program(pairwise):
    planned = plan.resolve(pairwise, pairwise.cases)
    assert set(planned.cases) == {c.index for c in pairwise.cases}
    assert planned.symbols == {d: planned.ranges[d] for d in pairwise.symbolic_dims}
    for case in pairwise.cases:
        one = planned.of(case)
        assert one.outputs == tuple(layout.output_slots(pairwise, case.inputs))
        assert {p.name: one.probes[p.name] for p in pairwise.probes} == {
            p.name: tuple(layout.probe_slots(pairwise, case.inputs, p)) for p in pairwise.probes}
        assert one.probe_args.keys() == {p.input for p in pairwise.probes}
        trace = rules.symbolic_trace(pairwise, case.inputs)
        assert one.trace == trace and one.key == rules.trace_key(trace)
        assert one.symbolic == {"key": one.key, "shapes": {n: list(s) for n, s in trace.shapes.items()},
                                "symbols": {k: list(v) for k, v in trace.symbols.items()}}


def test_the_request_walks_the_plan(loss_and_grads):
    """The request sends what the plan resolved: the same symbolic entry the cases' plans hold,
    a tree's leaves' extents nested as the tree; one key for every case of one program."""
    cases = loss_and_grads.cases
    planned = plan.resolve(loss_and_grads, cases)
    made = request.build_request(loss_and_grads, ROOT / "reference" / "loss_and_grads.py", cases, planned)
    assert [c["symbolic"] for c in made["cases"]] == [dict(planned.of(c).symbolic) for c in cases]
    assert made["cases"][0]["symbolic"]["shapes"]["params"] == {"w": ["d", "k"], "b": ["k"]}
    assert len({planned.of(c).key for c in cases}) == 1
    assert plan.case_plan(loss_and_grads, cases[0]).symbolic == planned.of(cases[0]).symbolic


def test_a_case_the_plan_was_not_made_with_is_resolved_on_its_own(pairwise):
    planned = plan.resolve(pairwise, pairwise.examples)
    case = pairwise.hidden[0]
    assert case.index not in planned.cases
    assert planned.of(case).outputs == tuple(layout.output_slots(pairwise, case.inputs))
    # another case under a planned index is not mistaken for the planned one
    other = dataclasses.replace(pairwise.hidden[1], index=pairwise.examples[0].index)
    assert planned.of(other).case is other


def test_a_grade_resolves_each_case_s_program_once(pairwise, monkeypatch):
    """Grading reads the plan: the rules' program of each case is resolved once per grade, not
    once for the request, again for the rules and again for the verdict."""
    calls = []
    real = rules.symbolic_trace

    def counted(problem, inputs):
        calls.append(problem.id)
        return real(problem, inputs)

    monkeypatch.setattr(rules, "symbolic_trace", counted)
    result = grading.grade(pairwise, ROOT / "reference" / "pairwise_sq_dists.py", examples_only=True,
                           hints=False, use_cache=False)  # no reference run to fill a cache
    assert result.verdict is Verdict.AC, [c.message for c in result.cases]
    assert len(calls) == len(pairwise.examples)
