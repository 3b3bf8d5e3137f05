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


def test_a_grade_resolves_each_case_s_program_once(monkeypatch):
    """Grading reads the plan: the rules' program of each case is resolved once, not once for
    the request, again for the rules and again for the verdict; and once per problem, not per
    grade: the next submission's grade reuses it."""
    pairwise = spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")  # planned by no test yet
    calls = []
    real = rules.symbolic_trace

    def counted(problem, inputs):
        calls.append(problem.id)
        return real(problem, inputs)

    monkeypatch.setattr(rules, "symbolic_trace", counted)
    for _ in range(2):
        result = grading.grade(pairwise, ROOT / "reference" / "pairwise_sq_dists.py", examples_only=True,
                               hints=False, use_cache=False)  # no reference run to fill a cache
        assert result.verdict is Verdict.AC, [c.message for c in result.cases]
        assert len(calls) == len(pairwise.examples)


def test_a_problem_loaded_again_is_planned_again(pairwise):
    """A case's plan is kept per problem object: a spec loaded again (edited, say) is planned
    anew, and its plan is not the old problem's."""
    again = spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")
    case, other = pairwise.examples[0], again.examples[0]
    assert plan.case_plan(pairwise, case) is plan.case_plan(pairwise, case)
    assert plan.case_plan(again, other) is not plan.case_plan(pairwise, case)
    assert plan.case_plan(again, other).case is other


@pytest.fixture(scope="module")
def clip_unrolling(tmp_path_factory):
    """per_example_clip with n left concrete: its loop rule wants each case traced again beside
    it, at an extent of n drawn at random."""
    import shutil

    import yaml

    root = tmp_path_factory.mktemp("clip")
    data = yaml.safe_load((ROOT / "problems" / "per_example_clip.yaml").read_text())
    data["symbolic_dims"] = ["d"]
    for key in ("related", "scoring"):
        data.pop(key, None)
    (root / "problems").mkdir()
    (root / "reference").mkdir()
    (root / "problems" / "per_example_clip.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    shutil.copy(ROOT / "reference" / "per_example_clip.py", root / "reference")
    return spec.load(root / "problems" / "per_example_clip.yaml")


def test_the_traces_the_rules_want_are_part_of_the_plan(clip_unrolling):
    """The plan holds every program the rules want traced without running: the ones made once
    (``once``) and the ones beside each case (``beside``), each under one tracing index per
    distinct program, numbered after the problem's cases."""
    cases = clip_unrolling.cases
    planned = plan.resolve(clip_unrolling, cases)
    assert planned.wanted, "no trace wanted: the test would prove nothing"
    assert isinstance(planned.wanted, tuple)
    assert list(planned.once) + [w for c in cases for w in planned.beside(c)] == list(planned.wanted)
    assert all(planned.beside(c) for c in cases if c.inputs["X"].shape[0] > 1)  # n is concrete
    assert all(w.owner is None for w in planned.once)
    assert min(w.index for w in planned.wanted) == len(clip_unrolling.cases)
    by_index: dict = {}
    for w in planned.wanted:
        by_index.setdefault(w.index, set()).add(rules.trace_key(w.trace))
    assert all(len(keys) == 1 for keys in by_index.values())
    with pytest.raises(dataclasses.FrozenInstanceError):
        planned.wanted = ()


def test_a_grade_asks_the_rules_for_their_traces_once(clip_unrolling, monkeypatch):
    """Grading walks the plan: the rules are asked which programs they want traced once per
    grade (once for the whole program, once beside each case), and the grade still decides."""
    calls = {"once": 0, "beside": 0}
    real_once, real_beside = rules.abstract_traces, rules.case_traces

    def once(problem):
        calls["once"] += 1
        return real_once(problem)

    def beside(problem, inputs, *more):
        calls["beside"] += 1
        return real_beside(problem, inputs, *more)

    monkeypatch.setattr(rules, "abstract_traces", once)
    monkeypatch.setattr(rules, "case_traces", beside)
    result = grading.grade(clip_unrolling, ROOT / "submissions" / "per_example_clip" / "rejected" / "python_loop.py",
                           examples_only=True, hints=False, use_cache=False, source_gate=False)
    assert result.verdict is Verdict.RJ, [c.message for c in result.cases]
    assert calls == {"once": 1, "beside": len(clip_unrolling.examples)}


def test_the_request_and_the_reference_plan_no_traces(clip_unrolling, monkeypatch):
    """What only the worker's request or the reference's values need is planned without the
    rules' traces (nothing is drawn at random for them)."""
    def refused(*args):
        raise AssertionError("the rules' traces were planned for a request")

    monkeypatch.setattr(rules, "abstract_traces", refused)
    monkeypatch.setattr(rules, "case_traces", refused)
    cases = clip_unrolling.examples
    assert plan.resolve(clip_unrolling, cases, traces=False).wanted == ()
    made = request.build_request(clip_unrolling, ROOT / "reference" / "per_example_clip.py", cases)
    assert [c["index"] for c in made["cases"]] == [c.index for c in cases]


def test_a_failing_example_s_report_reads_the_plan(loss_and_grads):
    """A failing example's expected output and probe inputs, nested as the submission returns
    them, are read from the case's plan and are what the problem model gives."""
    from judge.grade import example_diff

    case = loss_and_grads.examples[0]
    planned = plan.case_plan(loss_and_grads, case)
    details = {"expected": {}, "probe": {}, "diff": {"expected": {}}}
    from_plan = example_diff.as_returned(details, loss_and_grads, planned=planned)
    assert from_plan == example_diff.as_returned(details, loss_and_grads, case)
    assert from_plan["probe"] == example_diff.plain(dict(planned.probe_args))
    assert set(from_plan["expected"]) == {s.returned[0] for s in planned.outputs}


def test_only_a_failing_example_s_diff_is_made(loss_and_grads, monkeypatch):
    """A hidden case's details are never shown, so its diff is never made: a wrong answer on
    every case makes one diff per example, and the example's report still shows it."""
    from judge.grade import example_diff

    made = []
    real = example_diff.diff

    def counted(case, output, mismatch):
        made.append(case.visibility)
        return real(case, output, mismatch)

    monkeypatch.setattr(example_diff, "diff", counted)
    path = ROOT / "submissions" / "loss_and_grads" / "wrong_answer" / "bias_not_differentiated.py"
    result = grading.grade(loss_and_grads, path, hints=False)
    failing = [c for c in result.cases if c.verdict is Verdict.WA]
    assert any(c.visibility == "hidden" for c in failing)
    assert made and set(made) == {"example"}
    assert all("diff" in c.details for c in failing if c.visibility == "example")
    assert all(c.details == {} for c in failing if c.visibility == "hidden")
