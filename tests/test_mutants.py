"""Mutants of a reference (judge/author/mutants.py, mutants_ad_sites.py, mutants_ad_rewrite.py,
mutants_run.py, mutants_check.py): each operator's source change (the autodiff and batching ones too), stable ids, equivalence marking, classification and score, the
JSON shape, the `judge check --mutants` findings, one end-to-end run on a tiny problem, and that
the score is sensitive to the hidden cases (fewer cases, more survivors); the autodiff mutants of a
jvp-of-grad reference, with the full Hessian and the unrolled loop killed by the rules."""

import ast
import re
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
    """{mutant position (kind-LlineCcol-variant): the mutated source of the one changed line}."""
    out = {}
    for m in mutants.generate(source):
        lines = [line.strip() for line in m.source.splitlines() if line.strip()]
        original = [line.strip() for line in ast.unparse(ast.parse(source)).splitlines()
                    if line.strip()]
        diff = [b for b in lines if b not in original]
        out[m.position] = diff[-1] if diff else ""
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
    ids = [m.position for m in mutants.generate(source)]
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
    by_id = {m.position: m for m in mutants.generate(source)}
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
        "bwd-L15C4-identity": "line 15: `def backward: r = v / scale inside = (r >= qmin) & (r <= ...` "
                              "-> `def backward: return (g,)` (backward rule returns its cotangent)",
        "custom_rule-L9C4-remove": "line 9: `@... def quantize` -> `def quantize` (custom derivative "
                                   "rule removed)",
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


def test_ids_carry_no_line_and_survive_edits_elsewhere():
    """An id names the kind, the enclosing function, a digest of the statement and expression
    mutated, and the variant: lines added above, a comment, another function edited leave every
    id as it was; editing the statement itself makes new ids for its mutants only."""
    source = (ROOT / "reference" / "fake_quant_ste.py").read_text()
    before = {m.position: m.id for m in mutants.generate(source)}
    assert not [i for i in before.values() if re.search(r"-L\d+C\d+-", i)]
    assert before["clip-L10C23-swap"].startswith("clip-quantize-") and \
        before["clip-L10C23-swap"].endswith("-swap")
    shifted = source.replace("import jax\n", "import jax\n# a comment\n\n\nUNUSED = 3\n", 1)
    assert sorted(m.id for m in mutants.generate(shifted) if not m.id.startswith("const-module-")) \
        == sorted(before.values())
    edited = source.replace("r = v / scale", "r = v / scale  # the codes", 1)  # a comment only
    assert {m.id for m in mutants.generate(edited)} == set(before.values())


def test_an_edited_statement_gets_new_ids_and_the_rest_keep_theirs():
    source = "def f(a, b):\n    c = a < b\n    return a + b\n"
    before = {m.position: m.id for m in mutants.generate(source)}
    after = {m.position: m.id for m in mutants.generate(source.replace("a < b", "a < 2 * b"))}
    assert after["arith-L3C11-sub"] == before["arith-L3C11-sub"]
    assert after["compare-L2C8-le"] != before["compare-L2C8-le"]


def test_the_same_expression_twice_in_a_statement_gets_two_ids():
    ids = [m.id for m in mutants.generate("def f(a):\n    return (a + 1) * (a + 1)\n")
           if m.kind == "arith" and m.id.split("-")[-1] == "sub" or m.id.endswith("-sub-2")]
    assert len(ids) == 2 and ids[1] == ids[0] + "-2", ids


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
    status = {r.mutant.position: r.status for r in report.results}
    ties = ("halfup", "halfdown", "trunchalf", "halfaway")
    assert status == {"stop_gradient-L4C4-insert": "equivalent", "clip-L4C11-drop": "killed",
                      "clip-L4C11-swap": "killed", "round-L4C20-floor": "equivalent",
                      "round-L4C20-ceil": "survived", "round-L4C20-trunc": "invalid",
                      **{f"round-L4C20-{t}": "survived" for t in ties},
                      "dtype-L4C20-int8": "killed",
                      **{f"bound-L4C{c}-{v}": "killed" for c in (34, 38) for v in ("plus1", "minus1")}}
    assert report.score == 7 / 12                # 7 killed / (15 - 2 equivalent - 1 invalid)
    assert report.unknown_equivalents == ["gone-L9C9-x"]
    # written by line and column, as ids once were: taken, and named with the id to write
    stable = {m.position: m.id for m in (r.mutant for r in report.results)}
    assert report.renamed == {p: stable[p] for p in ("round-L4C20-floor", "stop_gradient-L4C4-insert")}
    assert stable["round-L4C20-floor"].startswith("round-p-") and stable["round-L4C20-floor"].endswith("-floor")
    data = json.loads(mutants_run.render_json(report))
    assert set(data) == {"problem", "score", "mutants"} and data["score"] == 7 / 12
    for entry in data["mutants"]:
        assert set(entry) == {"id", "description", "line", "status", "killed_by"}
    killed = next(e for e in data["mutants"] if e["status"] == "killed")
    assert killed["killed_by"] == [1] and killed["line"] == 4
    text = mutants_run.render_text(report)
    assert "SURVIVED" in text and "equivalent: the cases hold only integers" in text
    assert "mutation score 7/12 = 0.58" in text and "'gone-L9C9-x'" in text
    assert f"names 'round-L4C20-floor' by its line: " in text and repr(stable["round-L4C20-floor"]) in text


def test_check_adds_a_warning_per_survivor(fake_package):
    report = check.ProblemReport(problem="p", path="p.yaml")
    from judge.author.mutants_check import check_mutants

    check_mutants(report, fake_package, 1, lambda text: None)
    warnings = [f for f in report.findings if f.level == "warning"]
    where = {m.id: m.position for m in mutants.generate(fake_package.reference.read_text())}
    assert sorted(where[f.message.split()[1]] for f in warnings) == [
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
    status = {r.mutant.position: r.status for r in report.results}
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
    killed = {r.mutant.position: r.killed_by for r in report.results}
    assert killed["round-L5C29-round"] == [1]   # only the hidden 1.7 rounds differently
    # `judge check --mutants` grades on the examples first: the same status for each mutant,
    # and one the examples kill is not graded on the hidden cases
    fast = mutants_run.run(problem, jobs=2, first_kill=True)
    assert {r.mutant.position: r.status for r in fast.results} == status
    first = {r.mutant.position: r.killed_by for r in fast.results}
    assert first["round-L5C29-round"] == [1]
    assert first["round-L5C29-ceil"] == [0] and killed["round-L5C29-ceil"] == [0, 1]


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
    ids = {m.position: m.id for m in mutants.generate(HALVE_FILES["reference/halve.py"])}
    assert outcome.matrix.submissions == [ids["round-L5C11-round"], ids["round-L5C11-ceil"],
                                          ids["round-L5C11-trunc"]]
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
    assert [r.mutant.position for r in full.results] == [r.mutant.position for r in cut.results]
    assert len(full.results) == 9 and full.count("equivalent") == 1 and full.count("invalid") == 0
    # floor, ceil, trunc, trunc(x + 0.5) (wrong at -2.6) and int8 codes (wrong dtype) die on the example
    assert {r.mutant.position for r in cut.survivors} == {
        "round-L5C11-halfup", "round-L5C11-halfdown", "round-L5C11-halfaway"}
    assert full.survivors == []
    assert all(r.killed_by == [1] for r in full.results if r.mutant.position in
               {"round-L5C11-halfup", "round-L5C11-halfdown", "round-L5C11-halfaway"})
    assert (cut.score, full.score) == (5 / 8, 1.0)


# -- autodiff and batching operators (judge/author/mutants_ad_sites.py, mutants_ad_rewrite.py) ---

@pytest.mark.parametrize("source, expected", [
    # autodiff mode: jacfwd <-> jacrev (a bare name through jax), J v <-> J^T v
    ("def f(g, x):\n    return jax.jacfwd(g)(x)\n", {"mode-L2C11-jacrev": "return jax.jacrev(g)(x)"}),
    ("def f(g, x):\n    return jacrev(g)(x)\n", {"mode-L2C11-jacfwd": "return _mutant_jax.jacfwd(g)(x)"}),
    ("def f(g, x, v):\n    return jax.jvp(g, (x,), (v,))[1]\n",
     {"mode-L2C11-vjp": "return jax.vjp(g, x)[1](v)[0]",
      "materialize-L2C11-jacobian":
          "return _mutant_jnp.tensordot(_mutant_jax.jacfwd(g)(x), v, _mutant_jnp.ndim(v))",
      "seed-L2C28-ones": "return jax.jvp(g, (x,), _mutant_jax.tree.map(_mutant_jnp.ones_like, (v,)))[1]",
      "seed-L2C28-zeros": "return jax.jvp(g, (x,), _mutant_jax.tree.map(_mutant_jnp.zeros_like, (v,)))[1]",
      # the primal instead of the tangent is the `const` operator's
      "const-L2C34-to0": "return jax.jvp(g, (x,), (v,))[0]"}),
    ("def f(g, x, ct):\n    y, pullback = jax.vjp(g, x)\n    return pullback(ct)\n",
     {"mode-L2C18-jvp": "y, pullback = (g(x), lambda _ct: (jax.jvp(g, (x,), (_ct,))[1],))",
      "materialize-L2C18-jacobian": "y, pullback = (g(x), lambda _ct: (_mutant_jnp.tensordot(_ct, "
                                    "_mutant_jax.jacrev(g)(x), _mutant_jnp.ndim(_ct)),))",
      "seed-L3C20-ones": "return pullback(_mutant_jax.tree.map(_mutant_jnp.ones_like, ct))",
      "seed-L3C20-zeros": "return pullback(_mutant_jax.tree.map(_mutant_jnp.zeros_like, ct))"}),
    ("def f(g, x, ct):\n    return jax.vjp(g, x)[1](ct)\n",
     {"seed-L2C28-ones": "return jax.vjp(g, x)[1](_mutant_jax.tree.map(_mutant_jnp.ones_like, ct))"}),
    # another argnums: every other argument, or one index of a tuple at a time
    ("def f(w, x):\n    def loss(w, x):\n        return w * x\n    return jax.grad(loss)(w, x)\n",
     {"argnums-L4C11-to1": "return jax.grad(loss, argnums=1)(w, x)"}),
    ("def f(w, b, x):\n    loss = lambda w, b, x: w * b * x\n"
     "    return jax.grad(loss, argnums=(0, 1))(w, b, x)\n",
     {"argnums-L3C11-to21": "return jax.grad(loss, argnums=(2, 1))(w, b, x)",
      "argnums-L3C11-to02": "return jax.grad(loss, argnums=(0, 2))(w, b, x)"}),
    # primal and derivative swapped where they are unpacked
    ("def f(g, x, v):\n    y, t = jax.jvp(g, (x,), (v,))\n    return t\n",
     {"primal-L2C4-swap": "t, y = jax.jvp(g, (x,), (v,))",
      "mode-L2C11-vjp": "y, t = (g(x), jax.vjp(g, x)[1](v)[0])"}),
    ("def f(loss, w):\n    value, grad = jax.value_and_grad(loss)(w)\n    return grad\n",
     {"primal-L2C4-swap": "grad, value = jax.value_and_grad(loss)(w)"}),
    # a term or a factor dropped (never leaving a bare number)
    ("def f(a, b):\n    return a + b\n", {"term-L2C11-left": "return a", "term-L2C11-right": "return b"}),
    ("def f(a, b):\n    return a - b\n", {"term-L2C11-left": "return a"}),
    ("def f(a):\n    return 2 * a + 1\n",
     {"term-L2C11-left": "return 2 * a", "term-L2C11-right": "return a + 1"}),
    ("def f(a, b):\n    return 0.5 * (a * b)\n",
     {"term-L2C11-right": "return a * b", "term-L2C18-left": "return 0.5 * a",
      "term-L2C18-right": "return 0.5 * b"}),
    # transposed
    ("def f(W, x):\n    return W @ x\n",
     {"transpose-L2C11-swap": "return x @ W", "transpose-L2C11-tleft": "return W.T @ x"}),
    ("def f(A, B):\n    return jnp.dot(A, B)\n",
     {"transpose-L2C11-swap": "return jnp.dot(B, A)", "transpose-L2C11-tleft": "return jnp.dot(A.T, B)",
      "transpose-L2C11-tright": "return jnp.dot(A, B.T)"}),
    ("def f(a):\n    return a.T\n", {"transpose-L2C11-remove": "return a"}),
    ("def f(a):\n    return jnp.transpose(a)\n", {"transpose-L2C11-remove": "return a"}),
    # unrolled into a Python loop
    ("def f(g, X):\n    return jax.vmap(g)(X)\n",
     {"unroll-L2C11-vmap": "return _mutant_jax.tree.map(lambda *_r: _mutant_jnp.stack(_r), "
                           "*[g(_m0) for _m0 in X])"}),
    ("def f(g, w, X, y):\n    return jax.vmap(g, in_axes=(None, 0, 0))(w, X, y)\n",
     {"unroll-L2C11-vmap": "return _mutant_jax.tree.map(lambda *_r: _mutant_jnp.stack(_r), "
                           "*[g(w, _m1, _m2) for _m1, _m2 in zip(X, y)])"}),
    ("def f(g, w, X):\n    batched = jax.vmap(g, (None, 0))\n    return batched(w, X)\n",
     {"unroll-L3C11-vmap": "return _mutant_jax.tree.map(lambda *_r: _mutant_jnp.stack(_r), "
                           "*[g(w, _m1) for _m1 in X])"}),
    ("def f(g, X):\n    return jax.lax.map(g, X)\n",
     {"unroll-L2C11-map": "return _mutant_jax.tree.map(lambda *_r: _mutant_jnp.stack(_r), "
                          "*[g(_m0) for _m0 in X])"}),
    ("def f(step, c, xs):\n    return lax.scan(step, c, xs)\n",
     {"unroll-L2C11-scan": "return _mutant_scan(step, c, xs)"}),
    ("def f(body, a):\n    return lax.fori_loop(0, 4, body, a)\n",
     {"unroll-L2C11-fori": "return _mutant_fori(0, 4, body, a)"}),
    # a Hessian or a Jacobian built in full
    ("def f(loss, x, v):\n    return jax.jvp(jax.grad(loss), (x,), (v,))[1]\n",
     {"materialize-L2C11-hessian":
          "return _mutant_jnp.tensordot(_mutant_jax.hessian(loss)(x), v, _mutant_jnp.ndim(v))",
      "mode-L2C11-vjp": "return jax.vjp(jax.grad(loss), x)[1](v)[0]"}),
    ("def f(loss, w, X):\n    return jax.vmap(jax.grad(loss), in_axes=(None, 0))(w, X)\n",
     {"materialize-L2C11-jacobian": "return _mutant_jax.jacrev(jax.vmap(loss, in_axes=(None, 0)), "
                                    "argnums=0)(w, X)",
      "unroll-L2C11-vmap": "return _mutant_jax.tree.map(lambda *_r: _mutant_jnp.stack(_r), "
                           "*[jax.grad(loss)(w, _m1) for _m1 in X])"}),
    # a stop_gradient imported by name is removed too
    ("from jax.lax import stop_gradient\n\ndef f(a):\n    return stop_gradient(a)\n",
     {"stop_gradient-L4C11-remove": "return a"}),
])
def test_each_autodiff_operator_makes_its_change(source, expected):
    got = changes(source)
    for mutant_id, line in expected.items():
        assert got.get(mutant_id) == line, (mutant_id, got)


@pytest.mark.parametrize("source, absent", [
    # two vectors by their names: swapping a dot product changes nothing
    ("def f(x, w):\n    return jnp.dot(x, w) + x @ w\n", ("transpose-",)),
    # a function of one argument has no other argnums; an unknown function is left alone
    ("def f(x):\n    def loss(z):\n        return z\n    return jax.grad(loss)(x)\n", ("argnums-",)),
    ("def f(loss, x):\n    return jax.grad(loss)(x)\n", ("argnums-",)),
    # the primal of a jvp does not depend on the tangent
    ("def f(g, x, v):\n    return jax.jvp(g, (x,), (v,))[0]\n", ("mode-", "materialize-")),
    # several primals, or has_aux: no single Jacobian to swap or build
    ("def f(g, x, y, u, v):\n    return jax.jvp(g, (x, y), (u, v))[1]\n", ("mode-", "materialize-")),
    # axes other than 0 or None, and Python's own map, are not unrolled
    ("def f(g, X):\n    return jax.vmap(g, in_axes=1)(X)\n", ("unroll-",)),
    ("def f(g, X):\n    return jax.vmap(g, out_axes=1)(X)\n", ("unroll-",)),
    ("def f(g, X):\n    return list(map(g, X))\n", ("unroll-",)),
    ("def f(step, c, xs):\n    return lax.scan(step, c, xs, _split_transpose=True)\n", ("unroll-",)),
    # forward mode through a custom_vjp raises: no mutant that could only be invalid
    ("import jax\n\n@jax.custom_vjp\ndef r(v):\n    return v\n\n"
     "def f(x, ct):\n    return jax.vjp(r, x)[1](ct), jax.jacrev(r)(x)\n", ("mode-",)),
    # per-example gradients with respect to a batched argument are no Jacobian of the batch
    ("def f(loss, X):\n    return jax.vmap(jax.grad(loss))(X)\n", ("materialize-",)),
    # a term that would leave a bare number, or a negated one (`a - b` -> `-b`)
    ("def f(a):\n    return 1 - a\n", ("term-",)),
])
def test_autodiff_operators_leave_alone(source, absent):
    ids = [m.position for m in mutants.generate(source)]
    assert not [i for i in ids if any(i.startswith(word) for word in absent)], ids


def test_a_custom_rule_is_removed_with_its_rules():
    source = ("import jax\n\n\n@jax.custom_jvp\ndef f(x):\n    return x\n\n\n@f.defjvp\n"
              "def f_jvp(primals, tangents):\n    return primals[0], 2 * tangents[0]\n\n\n"
              "def g(x):\n    h = jax.custom_vjp(lambda v: v)\n    h.defvjp(lambda v: (v, None), "
              "lambda _, t: (3 * t,))\n    return f(x) + h(x)\n")
    by_id = {m.position: m for m in mutants.generate(source)}
    assert by_id["custom_rule-L5C0-remove"].source == (
        "import jax\n\ndef f(x):\n    return x\n\ndef f_jvp(primals, tangents):\n"
        "    return (primals[0], 2 * tangents[0])\n\ndef g(x):\n    h = jax.custom_vjp(lambda v: v)\n"
        "    h.defvjp(lambda v: (v, None), lambda _, t: (3 * t,))\n    return f(x) + h(x)\n")
    assert by_id["custom_rule-L5C0-remove"].description == \
        "line 5: `@... def f` -> `def f` (custom derivative rule removed)"
    assert by_id["custom_rule-L15C4-remove"].source.endswith(
        "def g(x):\n    h = lambda v: v\n    return f(x) + h(x)\n")
    import jax

    for mutant_id, derivative in (("custom_rule-L5C0-remove", 1.0 + 3.0),
                                  ("custom_rule-L15C4-remove", 2.0 + 1.0)):
        namespace = {}
        exec(compile(by_id[mutant_id].source, mutant_id, "exec"), namespace)
        assert float(jax.grad(namespace["g"])(1.0)) == derivative, mutant_id


def test_unrolled_loops_compute_what_the_reference_does():
    """A loop mutant is the same function written as a Python loop: only a rule can refuse it."""
    import jax
    import jax.numpy as jnp

    source = ("import jax\nimport jax.numpy as jnp\n\n\ndef f(W, X, y, v):\n"
              "    def step(m, row):\n        m = 0.5 * m + row\n        return m, m * 2\n\n"
              "    per_row = jax.vmap(lambda w, x, t: {'p': jnp.dot(w, x) - t},\n"
              "                       in_axes=(None, 0, 0))(v, X, y)\n"
              "    _, ema = jax.lax.scan(step, jnp.zeros_like(X[0]), X, reverse=True)\n"
              "    total = jax.lax.fori_loop(0, 3, lambda i, a: a + i, 0.0)\n"
              "    return per_row['p'], ema, total, jax.lax.map(jnp.sum, X)\n")
    namespace = {}
    exec(source, namespace)
    args = (None, jnp.arange(12.0).reshape(4, 3), jnp.arange(4.0), jnp.ones(3))
    reference = namespace["f"](*args)
    loops = [m for m in mutants.generate(source) if m.kind == "unroll"]
    assert sorted(m.id.rsplit("-", 1)[-1] for m in loops) == ["fori", "map", "scan", "vmap"]
    for m in loops:
        namespace = {}
        exec(compile(m.source, m.id, "exec"), namespace)
        got = namespace["f"](*args)
        assert jax.tree.structure(got) == jax.tree.structure(reference), m.id
        for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(reference)):
            np.testing.assert_allclose(a, b, err_msg=m.id)
        assert "_mutant_jax.tree.map" in m.source or "def _mutant_" in m.source


def test_materialized_derivatives_compute_what_the_reference_does():
    import jax
    import jax.numpy as jnp

    source = ("import jax\nimport jax.numpy as jnp\n\n\ndef f(W, x, v, ct):\n"
              "    def g(z):\n        return jnp.sum(jnp.tanh(W @ z))\n\n"
              "    hv = jax.jvp(jax.grad(g), (x,), (v,))[1]\n"
              "    y, pullback = jax.vjp(lambda z: jnp.tanh(W @ z), x)\n"
              "    grads = jax.vmap(jax.grad(lambda w, r: jnp.sum(w * r)), in_axes=(None, 0))(x, W)\n"
              "    return hv, pullback(ct)[0], grads\n")
    rng = np.random.default_rng(0)
    args = [jnp.asarray(rng.normal(size=shape), jnp.float32) for shape in ((3, 2), (2,), (2,), (3,))]
    namespace = {}
    exec(source, namespace)
    reference = namespace["f"](*args)
    built = [m for m in mutants.generate(source) if m.kind == "materialize"]
    assert [m.position for m in built] == ["materialize-L9C9-hessian", "materialize-L10C18-jacobian",
                                     "materialize-L11C12-jacobian"]
    for m in built:
        namespace = {}
        exec(compile(m.source, m.id, "exec"), namespace)
        for a, b in zip(namespace["f"](*args), reference):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=m.id)


@pytest.mark.parametrize("problem_id", ["hvp_tanh", "grad_reversal", "per_example_clip", "ema_scan",
                                        "fake_quant_ste", "sign_ste"])
def test_autodiff_mutants_of_the_references_compile_and_differ(problem_id):
    path = ROOT / "reference" / f"{problem_id}.py"
    if not path.is_file():
        pytest.skip(f"no {path.name}")
    source = path.read_text()
    generated = mutants.generate(source)
    texts = [m.source for m in generated if m.kind in mutants.mutants_ad_sites.KINDS]
    assert len(set(texts)) == len(texts) and ast.unparse(ast.parse(source)) + "\n" not in texts
    for m in generated:
        compile(m.source, m.id, "exec")


BHVP_SPEC = """\
id: bhvp
title: Batched Hessian-vector products
statement: "H(x) v for each row x of X, where f(x) = sum(tanh(W @ x))."
entry_point: bhvp
parameters:
  - {name: W, kind: array, dtype: float32, shape: [m, d], finite: true}
  - {name: X, kind: array, dtype: float32, shape: [n, d], finite: true}
  - {name: v, kind: array, dtype: float32, shape: [d], finite: true}
output: {kind: array, shape_like: X, dtype: float32}
tolerance: {rtol: 1.0e-4, atol: 1.0e-5}
limits: {time_per_case_s: 20, startup_s: 60}
rules:
  - {id: max_intermediate_size, bound: "4 * size(W) + 8 * size(X)"}
  - {id: no_unrolling, dim: n}
probe_shapes:
  - {name: wide, dims: {n: 2, m: 4, d: 512}}
examples:
  - name: small
    input: {W: [[0.5, -1.0], [0.25, 0.75], [1.0, 0.5]], X: [[0.1, -0.2], [0.3, 0.4]], v: [1.0, -2.0]}
    expected: [[-0.6520867, 0.9215794], [0.7707787, -0.5655038]]
hidden:
  - name: square
    input: {W: [[0.3, -0.6], [0.9, 0.2]], X: [[0.5, 0.25], [-0.5, 1.0], [0.0, 0.3]], v: [0.5, 1.5]}
    expected: [[-0.4906318, -0.1090293], [0.1402922, 0.4100969], [-0.1582074, 0.1372762]]
"""
BHVP = """\
import jax
import jax.numpy as jnp


def bhvp(W, X, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    def one(x):
        return jax.jvp(jax.grad(f), (x,), (v,))[1]

    return jax.vmap(one)(X)
"""


def test_autodiff_mutants_of_a_jvp_of_grad_are_killed_by_the_rules(tmp_path, monkeypatch):
    """A batched jvp-of-grad reference: the autodiff operators more than double its mutants,
    and the full Hessian and the Python loop over the rows, which compute the right values,
    are killed by the rules (RJ), as any submission that breaks them would be."""
    for rel, text in (("problems/bhvp.yaml", BHVP_SPEC), ("reference/bhvp.py", BHVP)):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    generated = mutants.generate(BHVP)
    before = [m.position for m in generated if m.kind not in mutants.mutants_ad_sites.KINDS]
    assert before == ["stop_gradient-L7C8-insert", "stop_gradient-L10C8-insert", "const-L10C48-to0",
                      "stop_gradient-L12C4-insert"]
    assert [m.position for m in generated if m.kind in mutants.mutants_ad_sites.KINDS] == [
        "transpose-L7C32-swap", "transpose-L7C32-tleft", "mode-L10C15-vjp",
        "materialize-L10C15-hessian", "seed-L10C42-ones", "seed-L10C42-zeros", "unroll-L12C11-vmap"]
    structural = ("materialize-L10C15-hessian", "unroll-L12C11-vmap")
    monkeypatch.setattr(mutants_run.mutants, "generate",
                        lambda source: [m for m in generated if m.position in structural])
    graded = {}
    grade = mutants_run.grading.grade

    position = {m.id: m.position for m in generated}

    def spy(problem, path, **kwargs):
        graded[position[Path(path).parent.name]] = result = grade(problem, path, **kwargs)
        return result

    monkeypatch.setattr(mutants_run.grading, "grade", spy)
    report = mutants_run.run(spec.load("bhvp", root=tmp_path), jobs=2)
    assert {r.mutant.position: (r.status, r.killed_by) for r in report.results} == {
        mutant_id: ("killed", [0, 1]) for mutant_id in structural}
    reasons = {mutant_id: {(c.verdict, c.reason) for c in result.cases}
               for mutant_id, result in graded.items()}
    assert reasons == {"materialize-L10C15-hessian": {(Verdict.RJ, "intermediate_too_large")},
                       "unroll-L12C11-vmap": {(Verdict.RJ, "dim_read_as_number")}}
    # the program traced with n, m and d as symbols: the Hessian grows as d^2
    assert "has d^2 elements" in graded["materialize-L10C15-hessian"].message
