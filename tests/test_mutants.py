"""Mutants of a reference (judge/author/mutants.py, judge/author/mutants_run.py, judge/author/mutants_check.py):
each operator's source change, stable ids, equivalence marking, classification and score, the
JSON shape, the `judge check --mutants` findings, one end-to-end run on a tiny problem, and that
the score is sensitive to the hidden cases (fewer cases, more survivors)."""

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import ROOT
from judge.author import mutants, mutants_run, check
from judge.problem import spec
from judge.errors import SpecError
from judge.grade.verdicts import CaseResult, GradeResult, Verdict


def changes(source: str) -> dict[str, str]:
    """{mutant id: the mutated source of the one changed line}."""
    out = {}
    for m in mutants.generate(source):
        lines = [line.strip() for line in m.source.splitlines() if line.strip()]
        original = [line.strip() for line in ast.unparse(ast.parse(source)).splitlines()
                    if line.strip()]
        diff = [b for b in lines if b not in original]
        out[m.id] = diff[-1] if diff else ""
    return out


@pytest.mark.parametrize("source, expected", [
    ("def f(a, b):\n    return a <= b\n", {"compare-L2C11-lt": "return a < b"}),
    ("def f(a, b):\n    return a > b\n", {"compare-L2C11-ge": "return a >= b"}),
    ("def f(a, b):\n    return a == b\n", {"compare-L2C11-ne": "return a != b"}),
    ("def f(a, b):\n    return a - b\n", {"arith-L2C11-add": "return a + b"}),
    ("def f(a, b):\n    return a * b\n", {"arith-L2C11-div": "return a / b"}),
    ("def f(a):\n    return -a\n", {"arith-L2C11-noneg": "return a"}),
    ("def f(a):\n    y = a + 0\n    return y\n", {"const-L2C12-to1": "y = a + 1"}),
    ("def f(a):\n    y = a ** 3\n    return y\n",
     {"const-L2C13-plus1": "y = a ** 4", "const-L2C13-minus1": "y = a ** 2"}),
    ("def f(a):\n    y = jnp.round(a)\n    return y\n",
     {"round-L2C8-floor": "y = jnp.floor(a)", "round-L2C8-ceil": "y = jnp.ceil(a)",
      "round-L2C8-trunc": "y = jnp.trunc(a)"}),
    ("def f(c, a, b):\n    y = jnp.where(c, a, b)\n    return y\n",
     {"where-L2C8-swap": "y = jnp.where(c, b, a)"}),
    ("def f(c, a, b):\n    y = lax.select(c, a, b)\n    return y\n",
     {"where-L2C8-swap": "y = lax.select(c, b, a)"}),
    ("def f(a, lo, hi):\n    y = jnp.clip(a, lo, hi)\n    return y\n", {"clip-L2C8-drop": "y = a"}),
    ("def f(a, lo, hi):\n    m = (a >= lo) & (a <= hi)\n    return m\n",
     {"mask-L2C8-left": "m = a >= lo", "mask-L2C8-right": "m = a <= hi"}),
    ("def f(g, m):\n    y = g * m.astype(g.dtype)\n    return y\n", {"mask-L2C8-left": "y = g"}),
    ("def f(a):\n    y = lax.stop_gradient(a)\n    return y\n", {"stop_gradient-L2C8-remove": "y = a"}),
    ("def f(a):\n    return a\n", {"stop_gradient-L2C4-insert": "return _mutant_lax.stop_gradient(a)"}),
    ("def rule_bwd(res, g):\n    y = res * g\n    return (y,)\n",
     {"bwd-L1C0-identity": "return (g,)"}),
    # tie rules of a ties-to-even rounding, and its codes cast to int8
    ("def f(a):\n    y = jnp.round(a)\n    return y\n",
     {"round-L2C8-halfup": "y = jnp.floor(a + 0.5)", "round-L2C8-halfdown": "y = jnp.ceil(a - 0.5)",
      "round-L2C8-trunchalf": "y = jnp.trunc(a + 0.5)",
      "round-L2C8-halfaway": "y = jnp.sign(a) * jnp.floor(jnp.abs(a) + 0.5)",
      "dtype-L2C8-int8": "y = jnp.round(a).astype('int8')"}),
    ("def f(a):\n    y = jnp.rint(a / 2)\n    return y\n",
     {"round-L2C8-halfup": "y = jnp.floor(a / 2 + 0.5)", "round-L2C8-round": "y = jnp.round(a / 2)"}),
    # a ratio rounded where the reference does not round (a mask from the rounded value)
    ("def f(v, s):\n    r = v / s\n    return r\n",
     {"round-L2C8-insert": "r = _mutant_jnp.round(v / s)", "scale-L2C8-drop": "r = v",
      "dtype-L2C8-f16": "r = _mutant_jnp.asarray(v / s, 'float16').astype(_mutant_jnp.result_type(v / s))"}),
    # a bound off by one, in clip and in a comparison
    ("def f(a, lo, hi):\n    y = jnp.clip(a, lo, hi)\n    return y\n",
     {"bound-L2C20-plus1": "y = jnp.clip(a, lo + 1, hi)", "bound-L2C20-minus1": "y = jnp.clip(a, lo - 1, hi)",
      "bound-L2C24-plus1": "y = jnp.clip(a, lo, hi + 1)", "bound-L2C24-minus1": "y = jnp.clip(a, lo, hi - 1)",
      "clip-L2C8-swap": "y = jnp.clip(a, hi, lo)"}),
    ("def f(r, qmax):\n    return r <= qmax\n",
     {"bound-L2C16-minus1": "return r <= qmax - 1", "bound-L2C16-plus1": "return r <= qmax + 1",
      "compare-L2C11-lt": "return r < qmax"}),
    ("def f(a, lo, hi):\n    m = (a >= lo) & (a <= hi)\n    return m\n",
     {"mask-L2C8-or": "m = (a >= lo) | (a <= hi)"}),
    # the scale applied once instead of twice; a cast dropped; a gradient computed in float16
    ("def f(s, a):\n    y = s * jnp.round(a / s)\n    return y\n",
     {"scale-L2C8-drop": "y = jnp.round(a / s)", "scale-L2C22-drop": "y = s * jnp.round(a)",
      "dtype-L2C8-f16": "y = _mutant_jnp.asarray(s * jnp.round(a / s), 'float16')"
                        ".astype(_mutant_jnp.result_type(s * jnp.round(a / s)))"}),
    ("def f(g, m):\n    y = g * m.astype(g.dtype)\n    return y\n",
     {"dtype-L2C12-nocast": "y = g * m",
      "dtype-L2C8-f16": "y = _mutant_jnp.asarray(g * m.astype(g.dtype), 'float16')"
                        ".astype(_mutant_jnp.result_type(g * m.astype(g.dtype)))"}),
])
def test_each_operator_makes_its_change(source, expected):
    got = changes(source)
    for mutant_id, line in expected.items():
        assert got.get(mutant_id) == line, (mutant_id, got)


@pytest.mark.parametrize("source, absent", [
    # no tie rules for floor, or for round with decimals; no off-by-one on a number (`const` does it)
    ("def f(a):\n    y = jnp.floor(a)\n    return y\n", ("halfup", "halfdown", "int8")),
    ("def f(a):\n    y = jnp.round(a, 2)\n    return y\n", ("halfup", "int8")),
    ("def f(a):\n    return jnp.clip(a, 0, 7)\n", ("bound-",)),
    # a ratio already rounded gets no second rounding; a constant factor is no float16 site
    ("def f(v, s):\n    return jnp.round(v / s)\n", ("round-L2C21-insert",)),
    ("def f(v):\n    return v / 2\n", ("f16",)),
    # a mask's cast is dropped by `mask`, never the cotangent it multiplies
    ("def f(g, m):\n    y = g * m.astype(g.dtype)\n    return y\n", ("scale-",)),
])
def test_operators_leave_alone(source, absent):
    ids = [m.id for m in mutants.generate(source)]
    assert not [i for i in ids if any(word in i for word in absent)], ids


def test_tie_rules_differ_from_round_only_at_ties():
    """Each tie rule agrees with round-half-to-even off the ties (trunc(x + 0.5) only for x >= 0)
    and differs on some tie: the mistakes that only a case sitting exactly on x.5 catches."""
    source = "import numpy as np\n\ndef f(a):\n    return np.round(a)\n"
    ties = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, -127.5])
    others = np.array([0.3, 1.7, -2.6, -0.2, 0.0, 126.49, -127.51, 3.0])
    rules = {m.id.rsplit("-", 1)[-1]: m for m in mutants.generate(source)
             if m.kind == "round" and m.id.rsplit("-", 1)[-1] in dict(mutants.TIE_RULES)}
    assert sorted(rules) == sorted(dict(mutants.TIE_RULES))
    for variant, m in rules.items():
        namespace = {}
        exec(compile(m.source, m.id, "exec"), namespace)
        off_ties = others[others >= 0] if variant == "trunchalf" else others
        assert np.array_equal(namespace["f"](off_ties), np.round(off_ties)), variant
        assert not np.array_equal(namespace["f"](ties), np.round(ties)), variant
        assert m.description.endswith(f"({mutants.VARIANT_WORDS['round', variant]})"), m.description


def test_new_operators_on_the_fake_quant_reference():
    """The mistakes a fake quantizer invites, each at its line of reference/fake_quant_ste.py."""
    source = (ROOT / "reference" / "fake_quant_ste.py").read_text()
    by_id = {m.id: m for m in mutants.generate(source)}
    expected = {
        "round-L10C32-halfdown": "line 10: `jnp.round(v / scale)` -> `jnp.ceil(v / scale - 0.5)` "
                                 "(ties rounded down)",
        "bound-L10C60-minus1": "line 10: `qmax` -> `qmax - 1` (bound off by one)",
        "bound-L17C23-plus1": "line 17: `qmin` -> `qmin + 1` (bound off by one)",
        "clip-L10C23-swap": "line 10: `jnp.clip(jnp.round(v / scale), qmin, qmax)` -> "
                            "`jnp.clip(jnp.round(v / scale), qmax, qmin)` (clip bounds swapped)",
        "scale-L10C15-drop": "line 10: `scale * jnp.clip(jnp.round(v / scale), qmin, qmax)` -> "
                             "`jnp.clip(jnp.round(v / scale), qmin, qmax)` (factor dropped)",
        "round-L16C12-insert": "line 16: `v / scale` -> `_mutant_jnp.round(v / scale)` "
                               "(rounded where the reference does not round)",
        "dtype-L16C12-f16": "line 16: `v / scale` -> `float16(v / scale)` (computed in float16, cast back)",
        "dtype-L10C32-int8": "line 10: `jnp.round(v / scale)` -> `jnp.round(v / scale).astype('int8')` "
                             "(codes cast to int8)",
        "dtype-L18C20-nocast": "line 18: `inside.astype(g.dtype)` -> `inside` (cast dropped)",
        "mask-L17C17-or": "line 17: `(r >= qmin) & (r <= qmax)` -> `(r >= qmin) | (r <= qmax)` "
                          "(mask | instead of &)",
    }
    for mutant_id, description in expected.items():
        assert by_id[mutant_id].description == description
    f16 = by_id["dtype-L16C12-f16"].source
    assert "import jax.numpy as _mutant_jnp" in f16.splitlines()[1:4]
    compile(f16, "f16", "exec")


def test_a_stop_gradient_insert_imports_lax_and_compiles():
    m = next(m for m in mutants.generate('"""doc."""\nfrom __future__ import annotations\n'
                                         'def f(a):\n    return a\n')
             if m.kind == "stop_gradient")
    lines = m.source.splitlines()
    assert lines[1] == "from __future__ import annotations"
    assert lines[2] == "import jax.lax as _mutant_lax"
    compile(m.source, "mutant.py", "exec")


def test_no_stop_gradient_is_inserted_into_custom_rules():
    source = (ROOT / "reference" / "fake_quant_ste.py").read_text()
    inserted = [m for m in mutants.generate(source) if m.kind == "stop_gradient" and m.id.endswith("-insert")]
    # only the entry point's return: the primal, forward and backward rules are left alone
    assert [m.line for m in inserted] == [23]


def test_ids_are_stable_unique_and_every_mutant_compiles():
    source = (ROOT / "reference" / "fake_quant_ste.py").read_text()
    first, second = mutants.generate(source), mutants.generate(source)
    assert [m.id for m in first] == [m.id for m in second]
    assert [m.source for m in first] == [m.source for m in second]
    assert len({m.id for m in first}) == len(first) >= 12
    for m in first:
        compile(m.source, m.id, "exec")
        assert m.source != source and f"line {m.line}:" in m.description
    assert {m.kind for m in first} >= {"compare", "arith", "round", "clip", "mask", "bwd", "bound",
                                       "dtype", "scale"}


def test_equivalents_file(tmp_path):
    path = tmp_path / "mutants.yaml"
    assert mutants_run.load_equivalents(path) == {}
    path.write_text("a-L1C0-x: plain reason\nb-L2C0-y:\n  reason: in a mapping\n")
    assert mutants_run.load_equivalents(path) == {"a-L1C0-x": "plain reason",
                                                  "b-L2C0-y": "in a mapping"}
    path.write_text("a-L1C0-x:\n  reason: ''\n")
    with pytest.raises(SpecError, match="needs a reason"):
        mutants_run.load_equivalents(path)


REASON = {Verdict.AC: "ok", Verdict.WA: "wrong_value", Verdict.RTE: "exception",
          Verdict.IE: "judge_error", Verdict.CE: "syntax_error"}


def _result(verdicts, verdict=None) -> GradeResult:
    cases = tuple(CaseResult(index=i, name=f"c{i}", visibility="hidden", verdict=v,
                             reason=REASON[v], message="") for i, v in enumerate(verdicts))
    worst = verdict or next((v for v in verdicts if v is not Verdict.AC), Verdict.AC)
    return GradeResult(problem="p", submission="s", verdict=worst, reason=REASON[worst], message="",
                       time_s=0.1, cases=cases)


def test_classify():
    m = mutants.generate("def f(a, b):\n    return a < b\n")[0]
    AC, WA, RTE, IE = Verdict.AC, Verdict.WA, Verdict.RTE, Verdict.IE
    assert mutants_run.classify(m, _result([AC, WA, AC, WA])).killed_by == [1, 3]
    assert mutants_run.classify(m, _result([AC, AC])).status == "survived"
    assert mutants_run.classify(m, _result([RTE, IE])).status == "invalid"
    assert mutants_run.classify(m, _result([AC, RTE])).status == "killed"
    assert mutants_run.classify(m, _result([], Verdict.CE)).status == "invalid"


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """A problem whose 'grades' are decided by the mutant's kind, without running anything."""
    (tmp_path / "problems").mkdir()
    (tmp_path / "reference").mkdir()
    (tmp_path / "submissions" / "p").mkdir(parents=True)
    (tmp_path / "reference" / "p.py").write_text(
        "import jax.numpy as jnp\n\ndef p(x, lo, hi):\n    return jnp.clip(jnp.round(x), lo, hi)\n")

    class Problem:
        id, entry_point = "p", "p"
        path = tmp_path / "problems" / "p.yaml"
        reference = tmp_path / "reference" / "p.py"

    outcomes = {"clip": [Verdict.AC, Verdict.WA], "round": [Verdict.AC, Verdict.AC],
                "stop_gradient": [Verdict.AC, Verdict.AC]}
    killed = [Verdict.AC, Verdict.WA]            # bound, dtype

    def fake_grade(problem, path, **kwargs):
        assert kwargs["source_gate"] is False
        kind = Path(path).parent.name.split("-")[0]
        if Path(path).parent.name.endswith("-trunc"):
            return _result([], Verdict.CE)
        return _result(outcomes.get(kind, killed))

    monkeypatch.setattr(mutants_run.grading, "grade", fake_grade)
    return Problem


def test_score_equivalents_and_json(fake_package):
    (fake_package.path.parent.parent / "submissions" / "p" / "mutants.yaml").write_text(
        "round-L4C20-floor: the cases hold only integers\n"
        "stop_gradient-L4C4-insert: values are not differentiated\n"
        "gone-L9C9-x: an old mutant\n")
    report = mutants_run.run(fake_package, jobs=2)
    status = {r.mutant.id: r.status for r in report.results}
    ties = ("halfup", "halfdown", "trunchalf", "halfaway")
    assert status == {"stop_gradient-L4C4-insert": "equivalent", "clip-L4C11-drop": "killed",
                      "clip-L4C11-swap": "killed", "round-L4C20-floor": "equivalent",
                      "round-L4C20-ceil": "survived", "round-L4C20-trunc": "invalid",
                      **{f"round-L4C20-{t}": "survived" for t in ties},
                      "dtype-L4C20-int8": "killed",
                      **{f"bound-L4C{c}-{v}": "killed" for c in (34, 38) for v in ("plus1", "minus1")}}
    assert report.score == 7 / 12                # 7 killed / (15 - 2 equivalent - 1 invalid)
    assert report.unknown_equivalents == ["gone-L9C9-x"]
    data = json.loads(mutants_run.render_json(report))
    assert set(data) == {"problem", "score", "mutants"} and data["score"] == 7 / 12
    for entry in data["mutants"]:
        assert set(entry) == {"id", "description", "line", "status", "killed_by"}
    killed = next(e for e in data["mutants"] if e["status"] == "killed")
    assert killed["killed_by"] == [1] and killed["line"] == 4
    text = mutants_run.render_text(report)
    assert "SURVIVED" in text and "equivalent: the cases hold only integers" in text
    assert "mutation score 7/12 = 0.58" in text and "'gone-L9C9-x'" in text


def test_check_adds_a_warning_per_survivor(fake_package):
    report = check.ProblemReport(problem="p", path="p.yaml")
    from judge.author.mutants_check import check_mutants

    check_mutants(report, fake_package, 1, lambda text: None)
    warnings = [f for f in report.findings if f.level == "warning"]
    assert sorted(f.message.split()[1] for f in warnings) == [
        "round-L4C20-ceil", "round-L4C20-floor", "round-L4C20-halfaway", "round-L4C20-halfdown",
        "round-L4C20-halfup", "round-L4C20-trunchalf", "stop_gradient-L4C4-insert"]
    assert all("survived" in f.message and f.line == 4 for f in warnings)
    assert "7 survived" in report.checks[-1].summary
    assert [f.level for f in report.findings if "invalid" in f.message] == ["info"]


SNAP_SPEC = """\
id: snap
title: Snap
statement: "floor(x) where x >= 0, else x."
entry_point: snap
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 8, finite: true}
output:
  kind: array
  shape_like: x
  dtype: float32
tolerance: {rtol: 0.0, atol: 0.0}
limits: {time_per_case_s: 10, startup_s: 60}
examples:
  - name: small
    input: {x: [-1.5, 0.0, 2.5]}
    expected: [-1.5, 0.0, 2.0]
hidden:
  - {input: {x: [0.5, 1.7]}, expected: [0.0, 1.0]}
"""
SNAP = "import jax.numpy as jnp\n\n\ndef snap(x):\n    return jnp.where(x >= 0, jnp.floor(x), x)\n"


def test_end_to_end_on_a_tiny_problem(tmp_path):
    for folder, name, text in (("problems", "snap.yaml", SNAP_SPEC), ("reference", "snap.py", SNAP),
                               ("submissions/snap", "mutants.yaml",
                                "stop_gradient-L5C4-insert: the judge never differentiates snap\n")):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / name).write_text(text)
    problem = spec.load("snap", root=tmp_path)
    report = mutants_run.run(problem, jobs=2)
    status = {r.mutant.id: r.status for r in report.results}
    assert status == {
        "stop_gradient-L5C4-insert": "equivalent",
        "where-L5C11-swap": "killed",
        "compare-L5C21-gt": "survived",        # floor(0) == 0: no case tells >= from >
        "const-L5C26-to1": "killed",
        "round-L5C29-round": "killed",
        "round-L5C29-ceil": "killed",
        "round-L5C29-trunc": "survived",       # equal to floor on x >= 0
    }
    assert report.score == 4 / 6
    killed = {r.mutant.id: r.killed_by for r in report.results}
    assert killed["round-L5C29-round"] == [1]   # only the hidden 1.7 rounds differently


HALVE_SPEC = """\
id: halve
title: Halve
statement: "floor(x / 2)."
entry_point: halve
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 8, finite: true}
output:
  kind: array
  shape_like: x
  dtype: float32
tolerance: {rtol: 0.0, atol: 0.0}
limits: {time_per_case_s: 10, startup_s: 60}
examples:
  - name: evens
    input: {x: [2.0, 4.0]}
    expected: [1.0, 2.0]
hidden: []
"""
HALVE_FILES = {
    "reference/halve.py": "import jax.numpy as jnp\n\n\ndef halve(x):\n    return jnp.floor(x / 2)\n",
    "generators/halve.py": (
        "import numpy as np\n\n"
        "def odd(rng):\n"
        "    return {'input': {'x': rng.integers(-9, 9, 4).astype(np.float32) * 2 + 1}}\n\n"
        "FAMILIES = {'odd': odd}\n"),
    # without derivative probes no case can kill it: marked equivalent, so not a target
    "submissions/halve/mutants.yaml": "stop_gradient-L5C4-insert: halve is never differentiated\n",
}


def test_generate_targets_the_surviving_mutants(tmp_path):
    from judge.author import generate_cmd

    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "halve.yaml").write_text(HALVE_SPEC)
    for rel, text in HALVE_FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    problem = spec.load(tmp_path / "problems" / "halve.yaml")
    outcome = generate_cmd.run(problem, 2, seed=1, target="mutants", jobs=2)
    # on even inputs, round, ceil and trunc of x / 2 equal floor: the examples leave them alive
    assert outcome.matrix.submissions == ["round-L5C11-round", "round-L5C11-ceil",
                                          "round-L5C11-trunc"]
    assert not outcome.matrix.uncaught()
    report = generate_cmd.render_report(outcome)
    assert "every surviving mutant of the reference is caught" in report
    assert generate_cmd.command_line(problem, 2, 1, None, "mutants", False).endswith("--target mutants")


ROUND_SPEC = """\
id: rq
title: Round
statement: "jnp.round(x): the nearest integer, ties to even."
entry_point: rq
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 8, finite: true}
output:
  kind: array
  shape_like: x
  dtype: float32
tolerance: {rtol: 0.0, atol: 0.0, signed_zero: false}
limits: {time_per_case_s: 10, startup_s: 60}
examples:
  - name: off_ties
    input: {x: [0.2, 1.7, -2.6, -0.4]}
    expected: [0.0, 2.0, -3.0, -0.0]
"""
ROUND_TIES = """\
hidden:
  - name: ties
    input: {x: [0.5, 1.5, -0.5, -1.5, 2.5, -2.5]}
    expected: [0.0, 2.0, -0.0, -2.0, 2.0, -2.0]
"""


def test_fewer_cases_leave_more_mutants_alive(tmp_path):
    """The measure sees what the hidden cases are worth: the same reference and examples, with and
    without a hidden case of ties. Only that case tells round-half-to-even from the tie rules a
    student might write instead (half up, half down, half away from zero)."""
    reports = {}
    for name, hidden in (("full", ROUND_TIES), ("examples_only", "hidden: []\n")):
        root = tmp_path / name
        for rel, text in (("problems/rq.yaml", ROUND_SPEC + hidden),
                          ("reference/rq.py", "import jax.numpy as jnp\n\n\ndef rq(x):\n"
                                              "    return jnp.round(x)\n"),
                          ("submissions/rq/mutants.yaml",
                           "stop_gradient-L5C4-insert: the judge never differentiates rq\n")):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        reports[name] = mutants_run.run(spec.load("rq", root=root), jobs=2)
    full, cut = reports["full"], reports["examples_only"]
    assert [r.mutant.id for r in full.results] == [r.mutant.id for r in cut.results]
    assert len(full.results) == 9 and full.count("equivalent") == 1 and full.count("invalid") == 0
    # floor, ceil, trunc, trunc(x + 0.5) (wrong at -2.6) and int8 codes (wrong dtype) die on the example
    assert {r.mutant.id for r in cut.survivors} == {
        "round-L5C11-halfup", "round-L5C11-halfdown", "round-L5C11-halfaway"}
    assert full.survivors == []
    assert all(r.killed_by == [1] for r in full.results if r.mutant.id in
               {"round-L5C11-halfup", "round-L5C11-halfdown", "round-L5C11-halfaway"})
    assert (cut.score, full.score) == (5 / 8, 1.0)
