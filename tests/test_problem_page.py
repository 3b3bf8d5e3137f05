"""The problem page: the optional spec keys `difficulty`, `tags`, `hints` and `related`, how
`judge show` and `judge list` render and filter them, and the `related` check of `judge check`.
A spec without these keys must load, show, list and check exactly as before."""

import pytest
import yaml

from judge import cli
from judge.author.check import check_problem
from judge.errors import SpecError
from judge.grade.hints import hinted
from judge.problem import spec
from judge.reports import check_text
from judge.reports.show import render
from tests.helpers import ROOT, judge

#: The README's smallest problem, without any of the page's keys.
BASE = """\
id: {id}
title: Double it
statement: Return 2 * x for a float32 vector x.
entry_point: double
parameters:
  - {{name: x, kind: array, dtype: float32, ndim: [1], max_size: 8, finite: true}}
output: {{kind: array, shape_like: x, dtype: float32}}
tolerance: {{rtol: 1.0e-6, atol: 0.0}}
examples:
  - name: small
    input: {{x: [1.0, -2.0]}}
    expected: [2.0, -4.0]
hidden:
  - name: large
    input: {{x: [0.0, 1000.0, -0.5]}}
    expected: [0.0, 2000.0, -1.0]
"""

PAGE = """\
difficulty: medium
tags: [jax, arithmetic]
related: [triple]
hints:
  - Multiplying an array by a number multiplies every entry.
  - >-
    2 * x and x + x are the same here: both are exact in float32,
    so either is accepted.
  - Nothing more to it.
"""


def write(folder, text, name="double"):
    path = folder / "problems" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def page_spec(tmp_path, page=PAGE, name="double"):
    return write(tmp_path, BASE.format(id=name) + page, name)


# -- the schema -----------------------------------------------------------------------------------

def test_the_page_keys_load_into_the_model(tmp_path):
    problem = spec.load(page_spec(tmp_path))
    assert problem.difficulty == "medium"
    assert problem.tags == ("jax", "arithmetic")
    assert problem.related == ("triple",)
    assert problem.hints == ("Multiplying an array by a number multiplies every entry.",
                             "2 * x and x + x are the same here: both are exact in float32, so "
                             "either is accepted.",
                             "Nothing more to it.")


def test_a_spec_without_the_page_keys_loads_as_before(tmp_path):
    problem = spec.load(write(tmp_path, BASE.format(id="double")))
    assert (problem.difficulty, problem.tags, problem.hints, problem.related) == (None, (), (), ())


@pytest.mark.parametrize("page, steps, on_line, words", [
    ("difficulty: extreme\n", ("difficulty",), "extreme", "is not one of ['easy', 'medium', 'hard']"),
    ("difficulty: [easy]\n", ("difficulty",), "difficulty", "is not one of"),
    ("tags: jax\n", ("tags",), "tags: jax", "is not of type 'array'"),
    ("tags:\n  - jax\n  - Linear Algebra\n", ("tags", 1), "Linear Algebra", "does not match"),
    ("tags:\n  - jax\n  - " + "x" * 33 + "\n", ("tags", 1), "x" * 33, "is too long"),
    ("tags: [jax, jax]\n", ("tags",), "tags: [jax, jax]", "non-unique"),
    ("tags:\n  - jax\n  - 3\n", ("tags", 1), "- 3", "is not of type 'string'"),
    ("hints: Use custom_vjp.\n", ("hints",), "hints: Use", "is not of type 'array'"),
    ("hints:\n  - first\n  - ''\n", ("hints", 1), "''", "should be non-empty"),
    ("hints:\n  - first\n  - '   '\n", ("hints", 1), "'   '", "does not match"),
    ("hints:\n  - first\n  - {text: second}\n", ("hints", 1), "text: second", "is not of type 'string'"),
    ("related: triple\n", ("related",), "related: triple", "is not of type 'array'"),
    ("related:\n  - triple\n  - Sign-STE\n", ("related", 1), "Sign-STE", "does not match"),
    ("related: [triple, triple]\n", ("related",), "related: [triple, triple]", "non-unique"),
    ("hint: [one]\n", ("hint",), "hint: [one]", "did you mean 'hints'?"),
    ("tag: [jax]\n", ("tag",), "tag: [jax]", "did you mean 'tags'?"),
])
def test_bad_page_values_are_errors_at_the_key_with_its_line(tmp_path, page, steps, on_line, words):
    path = page_spec(tmp_path, "# the page\n" + page)
    with pytest.raises(SpecError) as info:
        spec.load(path)
    err = info.value
    assert err.steps == steps, err
    assert words in err.problem, err.problem
    assert on_line in path.read_text().splitlines()[err.line - 1], (err.line, path.read_text())
    assert str(err).startswith(f"{path}: {err.where} (line {err.line}): ")


def test_judge_check_reports_a_bad_page_value_under_schema(tmp_path):
    path = page_spec(tmp_path, "difficulty: medium\ntags:\n  - Bad Tag\n")
    report = check_problem(path)  # stops at the schema: nothing runs
    [finding] = [f for f in report.findings if f.level == "error"]
    assert finding.check == "schema" and "tags[0]" in finding.message
    assert path.read_text().splitlines()[finding.line - 1] == "  - Bad Tag"


# -- judge show -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fq():
    return spec.load(ROOT / "problems" / "fake_quant_ste.yaml")


def _hint_lines(text):
    return text.split("\n## Hints\n", 1)[1].splitlines() if "\n## Hints\n" in text else []


def test_show_gives_difficulty_tags_and_the_number_of_hints_but_no_hint(fq):
    text = render(fq)
    head = text.split("\n## Signature", 1)[0]
    assert "Difficulty: medium" in head and "Tags: jax, autodiff, custom_vjp" in head
    assert "Related: sign_ste" in head
    assert _hint_lines(text) == ["3 hints; `--hints N` shows the first N."]
    for hint in fq.hints:
        assert hint[:40] not in " ".join(text.split())
    assert render(fq, hints=0) == text


@pytest.mark.parametrize("n, shown, note", [
    (1, 1, "(1 of 3 hints shown; `--hints 3` shows them all)"),
    (2, 2, "(2 of 3 hints shown; `--hints 3` shows them all)"),
    (3, 3, None),
    (4, 3, "(asked for 4; there are only 3 hints, all shown)"),
    (99, 3, "(asked for 99; there are only 3 hints, all shown)"),
])
def test_show_hints_n_reveals_the_first_n_in_order_and_never_more(fq, n, shown, note):
    text = render(fq, hints=n)
    lines = _hint_lines(text)
    flat = " ".join(" ".join(lines).split())
    numbers = [line.split(".", 1)[0].strip() for line in lines if line[:5].strip().rstrip(".").isdigit()]
    assert numbers == [str(i) for i in range(1, shown + 1)], lines
    for i, hint in enumerate(fq.hints):
        assert (" ".join(hint.split()) in flat) == (i < shown), (i, flat)
    assert (lines[-1] == note) if note else not lines[-1].startswith("(")
    assert text.startswith(render(fq).split("\n## Hints\n")[0])  # the rest of the page as before


def test_fake_quant_ste_hints_go_from_a_nudge_to_the_exact_mask(fq):
    first, second, third = fq.hints
    assert "custom_vjp" in first and "mask" not in first
    assert "mask" in second and "residual" in second and "multiplies" in second
    assert "(x / scale >= qmin) & (x / scale <= qmax)" in third
    assert (fq.difficulty, fq.tags[:3]) == ("medium", ("jax", "autodiff", "custom_vjp"))


def test_one_hint_is_singular_and_long_hints_are_wrapped(tmp_path):
    problem = spec.load(page_spec(tmp_path, "hints:\n  - " + "word " * 60 + "\n"))
    assert _hint_lines(render(problem)) == ["1 hint; `--hints N` shows the first N."]
    lines = _hint_lines(render(problem, hints=2))
    assert lines[0].startswith("  1. word") and all(len(line) <= 92 for line in lines)
    assert all(line.startswith("     word") for line in lines[1:-1]), lines
    assert lines[-1] == "(asked for 2; there is only 1 hint, all shown)"


def test_show_without_page_keys_is_the_page_minus_its_additions(tmp_path):
    bare = render(spec.load(write(tmp_path / "a", BASE.format(id="double"))))
    full = render(spec.load(page_spec(tmp_path / "b")), hints=3)
    assert "Difficulty" not in bare and "Tags" not in bare and "Hints" not in bare
    assert "Related" not in bare
    added = ["Difficulty: medium", "Tags: jax, arithmetic", "Related: triple", ""]
    stripped = full.split("\n\n## Hints\n")[0] + "\n"
    lines = stripped.splitlines()
    assert lines[2:6] == added
    assert "\n".join(lines[:2] + lines[6:]) + "\n" == bare


def test_show_cli_hints_option(tmp_path):
    r = judge("show", "fake_quant_ste", "--hints", "1")
    assert r.returncode == 0, r.stderr
    assert "  1. " in r.stdout and "  2. " not in r.stdout and "(1 of 3 hints shown" in r.stdout
    for bad in ("-1", "two", "1.5"):
        r = judge("show", "fake_quant_ste", "--hints", bad)
        assert r.returncode == 2 and "--hints" in r.stderr and bad in r.stderr, (bad, r.stderr)
        assert r.stdout == ""
    with pytest.raises(ValueError):
        render(spec.load(ROOT / "problems" / "sign_ste.yaml"), hints=-1)


# -- judge list -----------------------------------------------------------------------------------

@pytest.fixture
def catalogue(tmp_path, monkeypatch):
    """Four problems: two with page keys, one without, one that cannot be loaded."""
    page_spec(tmp_path, "difficulty: easy\ntags: [jax, autodiff]\n", name="alpha")
    page_spec(tmp_path, "difficulty: hard\ntags: [autodiff, scan]\n", name="beta")
    write(tmp_path, BASE.format(id="gamma"), "gamma")
    write(tmp_path, "id: delta\ntitle: [unclosed\n", "delta")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def listed(capsys, *options):
    assert cli.main(["list", *options]) == 0
    out, err = capsys.readouterr()
    return [line.split()[0] for line in out.splitlines()], out, err


def test_list_shows_difficulty_and_tags(catalogue, capsys):
    names, out, _ = listed(capsys)
    assert names == ["alpha", "beta", "delta", "gamma"]
    lines = dict(zip(names, out.splitlines()))
    assert lines["alpha"].endswith("(1 example, 1 hidden)  easy  tags: jax, autodiff")
    assert lines["beta"].endswith("(1 example, 1 hidden)  hard  tags: autodiff, scan")
    assert lines["gamma"] == f"{'gamma':<20} Double it  (1 example, 1 hidden)"  # as before
    assert "(invalid:" in lines["delta"]


@pytest.mark.parametrize("options, expected", [
    (["--tag", "autodiff"], ["alpha", "beta"]),
    (["--tag", "AUTODIFF"], ["alpha", "beta"]),
    (["--tag", "scan"], ["beta"]),
    (["--tag", "autodiff", "--tag", "jax"], ["alpha"]),
    (["--tag", "jax", "--tag", "scan"], []),
    (["--difficulty", "hard"], ["beta"]),
    (["--difficulty", "medium"], []),
    (["--difficulty", "easy", "--tag", "autodiff"], ["alpha"]),
    (["--difficulty", "easy", "--tag", "scan"], []),
])
def test_list_filters(catalogue, capsys, options, expected):
    names, _, err = listed(capsys, *options)
    assert names == sorted(expected + ["delta"])  # the invalid spec is listed whatever the filters
    assert ("no problem under problems/ matches" in err) == (not expected)


def test_list_refuses_an_unknown_difficulty(catalogue, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["list", "--difficulty", "extreme"])
    assert info.value.code == 2 and "extreme" in capsys.readouterr().err


# -- the bundled problems -------------------------------------------------------------------------

#: The problems of the track, each with a difficulty, tags, hints and the others as related.
TRACK = {"fake_quant_ste", "sign_ste", "grad_reversal", "hvp_tanh", "per_example_clip", "ema_scan"}


def _bundled():
    return {p.stem: spec.load(p) for p in sorted((ROOT / "problems").glob("*.yaml"))}


def test_bundled_related_ids_exist_and_point_to_each_other():
    problems = _bundled()
    paged = {pid for pid, p in problems.items() if p.related}
    assert TRACK <= paged
    for pid in paged:  # every related id is another bundled problem, and each has a few
        assert set(problems[pid].related) <= set(problems) - {pid}, pid
        assert len(problems[pid].related) >= 2, pid
    for pid in TRACK:  # the first problems of the track name each other
        assert TRACK - {pid} <= set(problems[pid].related), pid
    for pid in paged:
        p = problems[pid]
        assert p.difficulty in ("easy", "medium", "hard") and p.tags and len(p.hints) == 3, pid


def test_spec_hints_and_hints_of_known_mistakes_stay_apart(fq):
    known = hinted(fq)  # submissions/fake_quant_ste/submissions.yaml
    assert known and len(fq.hints) == 3
    assert not {h.hint for h in known} & set(fq.hints)
    assert "hints" not in yaml.safe_load(
        (ROOT / "submissions" / "fake_quant_ste" / "submissions.yaml").read_text())


# -- judge check: related ids ---------------------------------------------------------------------

REFERENCE = "def double(x):\n    return 2 * x\n"


@pytest.fixture(scope="module")
def related_reports(tmp_path_factory):
    """`judge check` of a problem whose related ids are another problem of the package, one
    that is not there and itself; and of that other problem, which has no related ids."""
    root = tmp_path_factory.mktemp("package")
    path = page_spec(root, "related:\n  - triple\n  - ghost\n  - double\n")
    other = write(root, BASE.format(id="triple"), "triple")
    (root / "reference").mkdir()
    for name in ("double", "triple"):
        (root / "reference" / f"{name}.py").write_text(REFERENCE)  # both define double()
    return path, check_problem(path, jobs=2), check_problem(other, jobs=2)


def test_check_warns_about_a_related_id_not_in_the_package(related_reports):
    path, report, _ = related_reports
    lines = path.read_text().splitlines()
    found = [f for f in report.findings if f.check == "related"]
    assert [f.level for f in found] == ["warning", "warning"], report.findings
    ghost, itself = found
    assert "'ghost'" in ghost.message and lines[ghost.line - 1].strip() == "- ghost"
    assert "itself" in itself.message and lines[itself.line - 1].strip() == "- double"
    assert report.errors == 0, report.findings
    assert [c.name for c in report.checks][:3] == ["schema", "cases", "related"]
    text = check_text.render(report)
    assert "warn  related" in text and "1 of 3 related problems found" in text
    assert f"{ghost.where}: related[1]: no problem 'ghost'" in text


def test_related_problems_outside_the_package_are_found_on_the_search_path(tmp_path, monkeypatch):
    """A problem kept outside the checkout may name the bundled problems, and problems in the
    folders of $JUDGE_PROBLEM_PATH, without a warning; an id found nowhere still warns and
    says where it was looked for."""
    from judge.problem import spec

    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, BASE.format(id="triple"), "triple")
    root = tmp_path / "package"
    path = page_spec(root, "related:\n  - sign_ste\n  - triple\n  - nowhere\n")
    monkeypatch.setenv(spec.PROBLEM_PATH_ENV, str(elsewhere / "problems"))
    monkeypatch.chdir(tmp_path)  # not in a repository: the bundled problems still count
    folders = spec.problem_folders(path)
    assert folders[:2] == [path.parent.resolve(), (elsewhere / "problems").resolve()]
    assert (ROOT / "problems").resolve() in folders
    (root / "reference").mkdir()
    (root / "reference" / "double.py").write_text(REFERENCE)
    report = check_problem(path)
    found = [f for f in report.findings if f.check == "related"]
    assert len(found) == 1 and "'nowhere'" in found[0].message, found
    assert str(spec.PROBLEM_PATH_ENV) in found[0].message


def test_check_has_no_related_check_without_the_key(related_reports):
    _, _, report = related_reports
    assert report.errors == 0, report.findings
    assert "related" not in [c.name for c in report.checks]
    # the package has no submissions: those two warnings, and nothing about related problems
    assert {f.check for f in report.findings if f.level == "warning"} == {"submissions",
                                                                          "time limit"}
