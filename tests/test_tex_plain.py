"""Statements write formulas in TeX and identifiers as code; `judge show` prints the formulas as
plain text a terminal reads (judge.reports.tex_plain). Every bundled problem also has the
author's write-up (`editorial`), which nothing shows before a solve."""

import re

import pytest

from judge.problem import spec
from judge.reports import show, tex_plain
from judge.service import problems as service_problems
from tests.helpers import ROOT, judge

BUNDLED = sorted((ROOT / "problems").glob("*.yaml"))


@pytest.mark.parametrize("tex,plain", [
    (r"\frac{m'}{1 - b_1^t}", "m' / (1 - b_1^t)"),
    (r"\frac{1}{2}\left(1 + \cos x\right)", "(1 / 2)(1 + cos x)"),
    (r"\sqrt{\hat v} + \epsilon", "sqrt(v_hat) + ε"),
    (r"10^{-6}", "1e-6"),
    (r"2 \cdot 10^{-4}", "2e-4"),
    (r"x^{t + 1}", "x^(t + 1)"),
    (r"q_{\min} \le x / s \le q_{\max}", "q_min <= x / s <= q_max"),
    (r"\operatorname{clip}(x, a, b)", "clip(x, a, b)"),
    (r"\min\left(1, \frac{\text{max\_norm}}{g}\right)", "min(1, max_norm / g)"),
    (r"D_{ij} = \sum_{k} (X_{ik} - Y_{jk})^2", "D_ij = sum over k of (X_ik - Y_jk)^2"),
    (r"g \mapsto -\lambda g", "g -> -λ g"),
    (r"\lVert x \rVert^2", "|| x ||^2"),
])
def test_a_formula_reads_as_typed(tex, plain):
    assert tex_plain.math(tex) == plain


def test_displayed_math_gets_its_own_lines_and_code_is_left_alone():
    text = ("With `a$b` and $x \\le 1$:\n\n$$\n\\begin{aligned}\nm &= 1 \\\\\nv &= \\frac{1}{2}\n"
            "\\end{aligned}\n$$\n\nend")
    assert tex_plain.plain(text) == "With `a$b` and x <= 1:\n\n    m = 1\n    v = 1 / 2\n\nend"


def _outside_code(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_bundled_statement_is_typeset_and_judge_show_reads_plainly(path):
    problem = spec.load(path)
    statement = problem.statement
    assert re.search(r"\$[^$]+\$", statement), "no formula in TeX"
    assert re.search(rf"`{problem.entry_point}\(", statement), "the function is not code"
    # identifiers of JAX are code, never prose: no jax.something outside backticks
    assert not re.search(r"\bjnp?\.\w|\bjax\.\w", _outside_code(re.sub(r"\$[^$]*\$", "", statement)))
    page = show.render(problem)
    prose = _outside_code(page)
    assert "$" not in prose and "\\" not in prose, [l for l in page.splitlines() if "\\" in l or "$" in l]
    assert not re.search(r"\\(frac|sqrt|le|cdot|text)\b", page)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_problem_has_a_write_up_that_nothing_shows_before_a_solve(path):
    problem = spec.load(path)
    assert len(problem.editorial) > 300 and "```python" in problem.editorial
    assert problem.editorial.split("\n")[0] not in show.render(problem)
    assert "editorial" not in service_problems.detail(problem)
    assert problem.editorial.split("\n")[0] not in str(service_problems.detail(problem))


def test_judge_show_prints_a_formula_as_plain_text():
    r = judge("show", "fake_quant_ste")
    assert r.returncode == 0
    assert "    q(x) = s * clip(round(x / s), q_min, q_max)" in r.stdout
    assert "`jax.custom_vjp`" in r.stdout and "1e-6" in r.stdout
