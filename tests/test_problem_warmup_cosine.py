"""warmup_cosine: the spec loads with its traced int32 scalar step, the cases cover the phases
and their boundaries, and a few known submissions get their verdict and reason (examples only):
a Python branch on the traced step is refused as a concretized traced value, not a crash."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "warmup_cosine.yaml")


def _phases(case):
    step = int(np.asarray(case.inputs["step"]))
    w, T = case.inputs["warmup_steps"], case.inputs["total_steps"]
    return step, w, T


def test_spec_shapes_and_rules(problem):
    assert 20 <= len(problem.hidden) <= 40 and len(problem.examples) == 4
    assert [r["id"] for r in problem.rules] == ["no_callbacks"]
    step = problem.parameters[0]
    assert (step.name, step.kind) == ("step", "array")
    for case in problem.cases:
        assert np.asarray(case.inputs["step"]).shape == ()
        assert np.asarray(case.inputs["step"]).dtype == np.int32
        assert np.shape(case.expected["value"]) == ()
        assert 0 <= case.inputs["warmup_steps"] < case.inputs["total_steps"]


def test_cases_cover_the_statement(problem):
    seen = set()
    for case in problem.cases:
        step, w, T = _phases(case)
        seen.add("warmup" if 0 < step < w else "decay" if w < step < T else
                 "after_total" if step > T else None)
        seen.update(name for name, hit in [
            ("step_zero", step == 0 and w > 0), ("at_warmup", step == w > 0),
            ("at_total", step == T), ("no_warmup", w == 0), ("longest_warmup", w == T - 1),
            ("last_warmup_step", step == w - 1 > 0), ("large", step >= 100_000),
            ("past_half_span", step > T + (T - w) // 2)] if hit)
    assert seen >= {"warmup", "decay", "after_total", "step_zero", "at_warmup", "at_total",
                    "no_warmup", "longest_warmup", "last_warmup_step", "large",
                    "past_half_span"}
    # a step past total_steps is in the examples: the unclamped cosine gets a hint there
    assert any(_phases(c)[0] > _phases(c)[2] for c in problem.examples)


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "where_chain", "AC", "ok", ""),
    ("accepted", "lax_cond", "AC", "ok", ""),
    ("rejected", "python_if", "RJ", "traced_value_concretized", "`if step < warmup_steps:`"),
    ("rejected", "builtin_min", "RJ", "traced_value_concretized", "TracerBoolConversionError"),
    ("rejected", "pure_callback", "RJ", "callback_used", ""),
    ("wrong_answer", "cosine_continues", "WA", "wrong_value", ""),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message
