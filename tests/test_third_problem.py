"""A new problem is only files: a spec, a reference and submissions in a fresh folder are graded
with no change to the judge."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from judge.grade import grading
from judge.problem import spec
from judge.grade.verdicts import Verdict

SPEC = """\
id: axpy
title: Scaled sum
statement: Return alpha * x + y.
entry_point: axpy
parameters:
  - {name: x, kind: array, dtype: [float32, float16], ndim: [1], max_size: 8, finite: true}
  - {name: y, kind: array, dtype: [float32, float16], shape_like: x, dtype_like: x}
  - {name: alpha, kind: float, traced: false, minimum: -10, maximum: 10}
output: {kind: array, shape_like: x, dtype_like: x}
tolerance: {rtol: 1.0e-6, atol: 0.0}
probes: {wrt: x, vjp: true, jvp: true}
examples:
  - name: basic
    input: {x: [1.0, 2.0], y: [0.5, -1.0], alpha: 3.0}
    probe: {cotangent: [1.0, -2.0], tangent: [0.5, 4.0]}
    expected: {value: [3.5, 5.0], vjp: [3.0, -6.0], jvp: [1.5, 12.0]}
hidden:
  - name: half_precision
    input: {x: {dtype: float16, data: [2.0]}, y: {dtype: float16, data: [1.0]}, alpha: -2.0}
    probe: {cotangent: [1.0], tangent: [0.25]}
    expected: {value: [-3.0], vjp: [-2.0], jvp: [-0.5]}
  - name: zero_alpha
    input: {x: [7.0, -7.0, 1.0], y: [1.0, 2.0, 3.0], alpha: 0.0}
    probe: {cotangent: [1.0, 1.0, 1.0], tangent: [1.0, 1.0, 1.0]}
    expected: {value: [1.0, 2.0, 3.0], vjp: [0.0, 0.0, 0.0], jvp: [0.0, 0.0, 0.0]}
"""

SOLUTIONS = {
    "reference/axpy.py": "def axpy(x, y, alpha):\n    return alpha * x + y\n",
    "submissions/axpy/accepted/plain.py": "def axpy(x, y, alpha):\n    return y + x * alpha\n",
    # right on the example, wrong derivative direction hidden behind alpha = 0
    "submissions/axpy/wrong_answer/sum_first.py": textwrap.dedent("""\
        import jax.numpy as jnp

        def axpy(x, y, alpha):
            return jnp.where(alpha == 0, alpha * (x + y), alpha * x + y)
        """),
}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    root = tmp_path_factory.mktemp("package")
    (root / "problems").mkdir()
    (root / "problems" / "axpy.yaml").write_text(SPEC)
    for rel, text in SOLUTIONS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_spec_loads_and_reference_agrees(package):
    problem = spec.load("axpy", root=package)
    assert problem.reference == package / "reference" / "axpy.py"
    assert problem.hidden[0].inputs["x"].dtype == np.float16
    outputs = grading.reference_outputs(problem)
    for case in problem.cases:
        for name, expected in case.expected.items():
            assert np.array_equal(outputs[case.index][name], expected), (case.name, name)


@pytest.mark.parametrize("rel, verdict", [
    ("submissions/axpy/accepted/plain.py", Verdict.AC),
    ("submissions/axpy/wrong_answer/sum_first.py", Verdict.WA),
])
def test_submissions_graded_without_code_change(package, rel, verdict):
    result = grading.grade(spec.load("axpy", root=package), package / rel)
    assert result.verdict is verdict, result.message
    if verdict is Verdict.WA:
        assert [c.verdict for c in result.cases] == [Verdict.AC, Verdict.AC, Verdict.WA]
        assert result.cases[2].reason == "wrong_value"


def test_cli_grades_from_the_package_folder(package):
    r = subprocess.run([sys.executable, "-m", "judge", "grade", "submissions/axpy/accepted/plain.py",
                        "--problem", "axpy"], cwd=package, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "AC" in r.stdout
