"""sign_ste: the judge's own derivative probes tell each wrong idea apart, with the reason."""

import ml_dtypes
import numpy as np
import pytest

from tests.helpers import ROOT
from judge.grade import grading
from judge.problem import spec

SUBS = ROOT / "submissions" / "sign_ste"


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "sign_ste.yaml")


@pytest.mark.parametrize("name, reason, words", [
    ("plain_sign", "wrong_vjp", "VJP probe"),
    ("cancelling_stop_gradient", "wrong_value", "values differ"),
    ("two_valued", "wrong_value", "value:"),
    ("identity", "wrong_value", "value:"),
    ("float32_output", "wrong_dtype", "dtype float32, expected bfloat16"),
    ("custom_vjp_only", "probe_failed", "JVP probe"),
])
def test_wrong_submissions_say_what_differed(problem, name, reason, words):
    result = grading.grade(problem, SUBS / "wrong_answer" / f"{name}.py")
    assert result.reason == reason, result.message
    assert words in result.message


def test_cancellation_trap_is_caught_only_by_large_magnitudes(problem):
    result = grading.grade(problem, SUBS / "wrong_answer" / "cancelling_stop_gradient.py")
    caught = {problem.cases[c.index].name for c in result.cases if c.reason != "ok"}
    assert "huge_positive_f32" in caught and "mixed_signs_and_zeros" not in caught


def test_cases_cover_the_statement(problem):
    assert len(problem.hidden) >= 30
    dtypes = {str(c.inputs["x"].dtype) for c in problem.hidden}
    assert dtypes == {"float32", "float16", "bfloat16"}
    for case in problem.cases:
        x = case.inputs["x"]
        assert case.expected["value"].dtype == x.dtype
        tiny = {np.float32: np.finfo(np.float32).tiny, np.float16: np.finfo(np.float16).tiny,
                ml_dtypes.bfloat16: ml_dtypes.finfo(ml_dtypes.bfloat16).tiny}[x.dtype.type]
        mag = np.abs(x.astype(np.float64))
        assert not ((mag > 0) & (mag < float(tiny))).any(), f"{case.name} has a subnormal"
        assert not np.all(case.probe_inputs["cotangent"] == 1) or x.size == 1
    assert any(np.signbit(c.inputs["x"].astype(np.float32)).any() and (c.inputs["x"] == 0).any()
               for c in problem.hidden)
    assert any(np.abs(c.inputs["x"].astype(np.float64)).max() >= 1e20 for c in problem.hidden)
