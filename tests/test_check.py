"""`judge check`: the repository's problems pass, and each kind of broken package fails with a
message that points at the cause.

Broken packages are small copies of fake_quant_ste in a temporary folder (same layout as the
repository, few hidden cases and few submissions, so each check takes seconds).
"""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import partial
from pathlib import Path

import pytest
import yaml

from judge.author.check import check_problem
from judge.reports import check_text, junit
from tests import helpers
from tests.helpers import ROOT

SUBS = ROOT / "submissions" / "fake_quant_ste"
KEEP_HIDDEN = (0, 3, 6)  # 1-D size 1 (scale 0.5, twice), 2-D 1x6 (scale 0.25)

REFERENCE = (ROOT / "reference" / "fake_quant_ste.py").read_text()
#: Wrong only when qmax > 100: no case of the trimmed package has that.
UNCAUGHT = REFERENCE + '''

_right = fake_quant_ste


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    out = _right(x, scale, qmin, qmax, cotangent)
    return {"values": out["values"] + (1.0 if qmax > 100 else 0.0), "grads": out["grads"]}
'''
#: Wrong only on 1x6 inputs: of the trimmed package, only hidden[2] has that shape.
ONLY_ONE_HIDDEN = UNCAUGHT.replace("qmax > 100", "x.shape == (1, 6)")


def make_package(root: Path, *, subs=None, mutate=None, reference=REFERENCE) -> Path:
    """A copy of fake_quant_ste under ``root``; ``subs`` maps "folder/name.py" to a bundled
    submission path or to source text. Return the spec's path."""
    data = yaml.safe_load((ROOT / "problems" / "fake_quant_ste.yaml").read_text())
    data["hidden"] = [data["hidden"][i] for i in KEEP_HIDDEN]
    data.pop("related", None)  # the copy stands alone: its related problems are not beside it
    data.pop("scoring", None)  # with three hidden cases left, its groups would match none
    if mutate:
        mutate(data)
    spec_path = root / "problems" / "fake_quant_ste.yaml"
    spec_path.parent.mkdir(parents=True, exist_ok=True)
    spec_path.write_text(yaml.safe_dump(data, sort_keys=False))
    if reference is not None:
        (root / "reference").mkdir(exist_ok=True)
        (root / "reference" / "fake_quant_ste.py").write_text(reference)
    for rel, source in (subs or {}).items():
        target = root / "submissions" / "fake_quant_ste" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copy(source, target)
        else:
            target.write_text(source)
    return spec_path


def errors(report, check_prefix=""):
    return [f for f in report.findings if f.level == "error" and f.check.startswith(check_prefix)]


judge = partial(helpers.judge, timeout=600)  # a whole package: slower than one grade


# -- the repository's own problems: checked once (grading every submission takes a minute or two)

@pytest.fixture(scope="module")
def repo_reports():
    # sign_ste grades in seconds; the whole repository is checked by `judge check` in .ci/run,
    # and every bundled submission's verdict by tests/test_submissions.py.
    return [check_problem(ROOT / "problems" / "sign_ste.yaml", jobs=2)]


def test_repository_problems_pass(repo_reports):
    for report in repo_reports:
        text = check_text.render(report)
        assert report.errors == 0, text
        assert text.rstrip().splitlines()[-1].startswith(f"{report.problem}: 0 errors, ")


def test_repository_check_covers_every_submission(repo_reports):
    for report in repo_reports:
        names = {c.name for c in report.checks}
        folder = ROOT / "submissions" / report.problem
        for path in folder.glob("*/*.py"):
            rel = f"{path.parent.name}/{path.name}"
            assert f"verdict {rel}" in names
            if path.parent.name in ("wrong_answer", "rejected"):
                assert f"strength {rel}" in names
        assert {"schema", "cases", "expected", "submissions", "time limit"} <= names


def test_repository_junit_lists_every_check(repo_reports, tmp_path):
    out = tmp_path / "junit.xml"
    junit.write(repo_reports, out)
    root = ET.parse(out).getroot()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [r.problem for r in repo_reports]
    for suite, report in zip(suites, repo_reports):
        assert [c.get("name") for c in suite.findall("testcase")] == [c.name for c in report.checks]
        assert suite.get("failures") == "0"


# -- broken packages ----------------------------------------------------------------------------

def test_tampered_expected_value_names_case_and_entry(tmp_path):
    stored = {}

    def tamper(data):
        stored["value"] = data["hidden"][1]["expected"]["values"][0]
        data["hidden"][1]["expected"]["values"][0] = stored["value"] + 0.5

    path = make_package(tmp_path, mutate=tamper)
    report = check_problem(path)
    found = errors(report, "expected")
    assert len(found) == 1, check_text.render(report)
    message = found[0].message
    assert "hidden 1 (tie_neg_half_rounds_to_neg_zero)" in message
    assert "expected.values[0]" in message
    assert f"stored {stored['value'] + 0.5!r}" in message and "the reference computes" in message
    assert found[0].file == str(path) or path.name in found[0].file
    assert repr(stored["value"] + 0.5) in path.read_text().splitlines()[found[0].line - 1]


def test_a_differing_float32_entry_is_shown_as_float32(tmp_path):
    """A stored float32 entry and the reference's are printed in their own dtype's shortest
    repr: 2.6, not the float64 2.5999999046325684 of the same float32."""
    def tamper(data):
        data["hidden"][1]["expected"]["values"][0] = 2.6

    report = check_problem(make_package(tmp_path, mutate=tamper))
    found = errors(report, "expected")
    assert len(found) == 1, check_text.render(report)
    assert "stored 2.6, the reference computes" in found[0].message
    assert "2.5999999" not in found[0].message


def test_a_stored_value_off_in_its_last_bits_is_a_note_not_an_error(tmp_path):
    """Another JAX release (or machine) computes some floats a few ulps apart: a stored output
    within the problem's tolerance (fake_quant_ste: 1e-6) is one note for the whole spec; a
    difference beyond it in another case is still an error."""
    def nudge(data):
        data["hidden"][0]["expected"]["values"][0] = 1e-9           # stored 0.0: within 1e-6
        data["hidden"][2]["expected"]["values"][0][1] = 0.5 + 1e-3  # stored 0.5: beyond it

    path = make_package(tmp_path, mutate=nudge)
    report = check_problem(path)
    found = errors(report, "expected")
    assert len(found) == 1 and "hidden 2" in found[0].message, check_text.render(report)
    notes = [f for f in report.findings if f.check == "expected" and f.level == "info"]
    assert len(notes) == 1, check_text.render(report)
    assert notes[0].message.startswith("1 stored outputs differ from what the reference computes "
                                       "with this JAX only within the problem's tolerance")
    assert "hidden 0" in notes[0].message and "--refresh --write" in notes[0].message


def test_check_names_the_reason_a_file_with_a_reason_got(tmp_path):
    """submissions.yaml's ``reason:`` (a code or a list): the reason that matched is a note; a
    reason the file did not get is an error naming both."""
    callback = ROOT / "submissions" / "fake_quant_ste" / "rejected" / "pure_callback.py"
    path = make_package(tmp_path, subs={"rejected/callback.py": callback,
                                        "rejected/callback_again.py": callback})
    (path.parent.parent / "submissions" / "fake_quant_ste" / "submissions.yaml").write_text(
        "rejected/callback.py:\n  reason: [intermediate_too_large, callback_used]\n"
        "rejected/callback_again.py:\n  reason: forbidden_primitive\n")
    report = check_problem(path)
    notes = [f.message for f in report.findings if f.level == "info" and "callback.py" in f.file]
    assert "RJ [callback_used]: one of the reasons submissions.yaml names (callback_used, "\
           "intermediate_too_large)" in notes, check_text.render(report)
    found = [f.message for f in errors(report, "verdict") if "callback_again.py" in f.file]
    assert len(found) == 1 and "expected the reason forbidden_primitive" in found[0], found


def test_invalid_cases_are_each_reported_and_the_rest_still_run(tmp_path):
    def break_two(data):
        data["hidden"][0]["input"]["x"] = [0.5] * 7
        data["examples"][1]["input"]["scale"] = -1.0

    path = make_package(tmp_path, mutate=break_two)
    report = check_problem(path)
    messages = [f.message for f in errors(report, "cases")]
    assert any(m.startswith("hidden[0].input.x: has 7 entries, at most 6 allowed")
               and "tie_pos_half_rounds_to_zero" in m for m in messages), messages
    assert any(m.startswith("examples[1].input.scale:") for m in messages), messages
    lines = path.read_text().splitlines()
    for f in errors(report, "cases"):
        assert f.line and lines[f.line - 1].strip()
    # the valid cases still ran against the reference
    assert not errors(report, "expected")
    assert next(c for c in report.checks if c.name == "expected").summary.startswith("4 stored")


def test_wrong_submissions_not_caught_fail_and_weak_ones_warn(tmp_path):
    path = make_package(tmp_path, subs={
        "accepted/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py",
        "wrong_answer/floor_half_up.py": SUBS / "wrong_answer" / "floor_half_up.py",
        "wrong_answer/big_qmax.py": UNCAUGHT,
        "wrong_answer/row_only.py": ONLY_ONE_HIDDEN,
    })
    report = check_problem(path, jobs=4)
    text = check_text.render(report)
    uncaught = errors(report, "strength")
    assert [f.check for f in uncaught] == ["strength wrong_answer/big_qmax.py"], text
    assert "no case catches it" in uncaught[0].message and "big_qmax.py" in uncaught[0].file
    assert [f.check for f in errors(report, "verdict")] == ["verdict wrong_answer/big_qmax.py"]
    warnings = [f for f in report.findings if f.level == "warning"]
    assert [f.check for f in warnings] == ["strength wrong_answer/row_only.py"], text
    assert "hidden 2 (ties_pos_row_1x6)" in warnings[0].message
    caught = next(f for f in report.findings if f.check == "strength wrong_answer/floor_half_up.py")
    assert caught.level == "info" and "example 0" in caught.message
    assert text.rstrip().endswith("s)") and "fake_quant_ste: 2 errors, 1 warning" in text
    # the failing submission's report is shown once, under its verdict finding
    assert text.count("verdict AC [ok]") == 1

    out = tmp_path / "junit.xml"
    junit.write([report], out)
    cases = {c.get("name"): c for c in ET.parse(out).getroot().iter("testcase")}
    assert list(cases) == [c.name for c in report.checks]
    assert cases["verdict wrong_answer/big_qmax.py"].find("failure").get("type") == "error"
    assert cases["strength wrong_answer/row_only.py"].find("failure") is None
    junit.write([report], out, werror=True)
    cases = {c.get("name"): c for c in ET.parse(out).getroot().iter("testcase")}
    assert cases["strength wrong_answer/row_only.py"].find("failure").get("type") == "warning"


def test_submission_with_unexpected_verdict_is_an_error(tmp_path):
    path = make_package(tmp_path, subs={
        "accepted/floor_half_up.py": SUBS / "wrong_answer" / "floor_half_up.py",
        "rejected/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py",
    })
    report = check_problem(path, jobs=2)
    found = {f.check: f for f in errors(report, "verdict")}
    assert set(found) == {"verdict accepted/floor_half_up.py", "verdict rejected/closure_vjp.py"}
    wa = found["verdict accepted/floor_half_up.py"]
    assert wa.message.startswith("WA on example 0 (clip_both_ends)") and "AC on every case" in wa.message
    assert wa.details is not None and wa.details.verdict.value == "WA"  # data, rendered by reports
    shown = check_text.details(wa)
    assert "expected:" in shown and "got:" in shown
    assert "example 0 (clip_both_ends):" in shown
    assert "\n".join("            " + line for line in shown.splitlines()) in check_text.render(report)
    assert "RJ on at least one case" in found["verdict rejected/closure_vjp.py"].message


def test_non_verdict_folder_and_bad_submissions_yaml(tmp_path):
    path = make_package(tmp_path, subs={
        "accepted/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py",
        "wrong/floor_half_up.py": SUBS / "wrong_answer" / "floor_half_up.py",
        "extra/grad_weighted_sum.py": SUBS / "accepted" / "grad_weighted_sum.py",
        "submissions.yaml": "extra/grad_weighted_sum.py: {permitted: [AC], required: [AC]}\n"
                            "accepted/closure_vjp.py:\n  permitted: [AC, XX]\n"
                            "accepted/nope.py: {required: [WA]}\n",
    })
    report = check_problem(path, jobs=3)
    found = errors(report, "submissions")
    by_text = {f.message.split(":")[0]: f for f in found}
    assert len(found) == 3, check_text.render(report)
    folder = next(f for f in found if "'wrong' is not a verdict folder" in f.message)
    assert folder.file.endswith("submissions/fake_quant_ste/wrong")
    bad_verdict = next(f for f in found if "XX" in f.message)
    assert bad_verdict.file.endswith("submissions.yaml") and bad_verdict.line == 2
    assert any("'accepted/nope.py' names no submission file" in f.message for f in found), by_text
    # the override made extra/ acceptable; the wrongly named folder was not graded
    names = [c.name for c in report.checks]
    assert "verdict extra/grad_weighted_sum.py" in names
    assert "verdict wrong/floor_half_up.py" not in names
    assert not errors(report, "verdict")


def test_missing_and_raising_reference(tmp_path):
    missing = check_problem(make_package(tmp_path / "a", reference=None))
    [found] = errors(missing, "expected")
    assert found.file.endswith("reference/fake_quant_ste.py") and "not found" in found.message

    raising = "def fake_quant_ste(x, scale, qmin, qmax, cotangent):\n    raise ValueError('boom')\n"
    report = check_problem(make_package(tmp_path / "b", reference=raising))
    [found] = errors(report, "expected")
    assert found.file.endswith("reference/fake_quant_ste.py")
    assert "the reference failed on example 0 (clip_both_ends)" in found.message and "boom" in found.message


def test_cli_yaml_error_is_reported_and_other_problems_still_checked(tmp_path):
    make_package(tmp_path, subs={"accepted/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py"})
    (tmp_path / "problems" / "broken.yaml").write_text("id: broken\ntitle: [unclosed\nstatement: x\n")
    r = judge("check", "-j", "2", "--junit-xml", "out/junit.xml", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "problems/broken.yaml:3: YAML syntax error" in r.stdout, r.stdout
    assert "fake_quant_ste: 0 errors, 0 warnings" in r.stdout
    assert "checked 2 problems: 1 error, 0 warnings" in r.stdout
    root = ET.parse(tmp_path / "out" / "junit.xml").getroot()
    assert [s.get("name") for s in root.findall("testsuite")] == ["broken", "fake_quant_ste"]
    broken = root.find("testsuite[@name='broken']")
    assert broken.find("testcase[@name='schema']/failure") is not None
    assert broken.find("testcase[@name='expected']/skipped") is not None


def test_cli_exit_codes(tmp_path):
    make_package(tmp_path)  # no submissions: a warning, no error
    r = judge("check", "fake_quant_ste", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no submissions folder" in r.stdout and "0 errors, 2 warnings" in r.stdout
    assert judge("check", "--werror", "problems/fake_quant_ste.yaml", cwd=tmp_path).returncode == 1
    r = judge("check", "no_such_problem", cwd=tmp_path)
    assert r.returncode == 2 and "unknown problem" in r.stderr
    assert judge("check", "-j", "0", cwd=tmp_path).returncode == 2


def test_the_check_does_not_import_jax():
    code = ("import sys, judge.cli, judge.author.check, judge.author.strength, judge.reports.junit; "
            "assert 'jax' not in sys.modules, 'jax imported'")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


# -- rules: a warning silenced on purpose --------------------------------------------------------

def _rules_findings(path):
    """The rules check of `judge check` alone (no submission graded): its findings."""
    from judge.author import rule_check
    from judge.author.check import ProblemReport
    from judge.problem import spec

    report = ProblemReport(problem="p", path=str(path))
    rule_check.check_rules(report, spec.load(path), {})
    return [f for f in report.findings if f.check == "rules"]


#: why loss_and_grads' size bound would be kept without symbolic dims, where it has a blind spot
BLIND_SPOT = ("the bound is there for per-example gradients, an (n, d, k) value, not for a d x d "
              "one, and the largest cases (n = 32, d = k = 16) are where it refuses them")


def _with_bound_rule(tmp_path, silence):
    """loss_and_grads traced at its cases' own shapes (no symbolic dims: its size bound then
    has a blind spot), with the bound's silence ``silence`` (None: none)."""
    data = yaml.safe_load((ROOT / "problems" / "loss_and_grads.yaml").read_text())
    data["symbolic_dims"] = []
    rule = next(r for r in data["rules"] if r["id"] == "max_intermediate_size")
    rule.pop("silence", None)
    if silence is not None:
        rule["silence"] = silence
    path = tmp_path / "problems" / "loss_and_grads.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_a_silenced_rule_warning_is_a_note_with_its_reason(tmp_path):
    """A size bound kept on purpose silences its blind-spot warning (no d x d value is what it
    refuses): a note giving the reason, at the silence's line."""
    path = _with_bound_rule(tmp_path, {"blind_spot": BLIND_SPOT})
    (found,) = _rules_findings(path)
    assert found.level == "info" and "[silenced (blind_spot): the bound is there for" in found.message
    assert "blind_spot:" in path.read_text().splitlines()[found.line - 1]


def test_with_its_dims_symbolic_the_bound_has_no_blind_spot():
    """Traced with n, d and k as symbols (the tree's leaves too), loss_and_grads' bound is proved
    over the dims' whole ranges: no warning, and nothing to silence."""
    assert _rules_findings(ROOT / "problems" / "loss_and_grads.yaml") == []


def test_without_its_silence_the_warning_is_back_at_the_rules_line(tmp_path):
    path = _with_bound_rule(tmp_path, None)
    (found,) = _rules_findings(path)
    assert found.level == "warning" and "rule 2 (max_intermediate_size): at every case" in found.message
    assert "id: max_intermediate_size" in path.read_text().splitlines()[found.line - 1]


def test_a_silence_of_a_warning_not_given_is_a_warning(tmp_path):
    """No rejected submission is graded here, so no rule can be unshown: that silence is stale."""
    path = _with_bound_rule(tmp_path, {"blind_spot": "why", "unshown": "kept on purpose"})
    found = {f.level: f for f in _rules_findings(path)}
    assert "silence.unshown: the warning it silences is not given any more" in found["warning"].message
    assert "unshown:" in path.read_text().splitlines()[found["warning"].line - 1]


@pytest.mark.parametrize("silence, key, says", [
    ({"unseen": "why"}, "rules[2].silence.unseen", "unknown key 'unseen'"),
    ({"unshown": ""}, "rules[2].silence.unshown", "should be non-empty"),
    ({}, "rules[2].silence", "should be non-empty"),
])
def test_a_bad_silence_names_the_file_line_and_key(tmp_path, silence, key, says):
    from judge.errors import SpecError
    from judge.problem import spec

    path = _with_bound_rule(tmp_path, silence)
    with pytest.raises(SpecError) as info:
        spec.load(path)
    text = str(info.value)
    assert f"loss_and_grads.yaml: {key} (line " in text and says in text, text


# -- a known gap on record ------------------------------------------------------------------------

GAP = "the rules cannot see it yet"


def test_a_known_gap_is_a_note_and_an_error_once_closed(tmp_path):
    """A rejected/ file the judge accepts, recorded as a known gap, is a note (not an error, and
    no case need catch it); a rejected/ file with a known gap that the judge does refuse is an
    error: the gap is closed, and its entry must go."""
    callback = ROOT / "submissions" / "fake_quant_ste" / "rejected" / "pure_callback.py"
    honest = sorted((ROOT / "submissions" / "fake_quant_ste" / "accepted").glob("*.py"))[0]
    path = make_package(tmp_path, subs={"rejected/open.py": honest, "rejected/closed.py": callback})
    overrides = path.parent.parent / "submissions" / "fake_quant_ste" / "submissions.yaml"
    overrides.write_text(f"rejected/open.py:\n  known_gap: {GAP}\n"
                         f"rejected/closed.py:\n  known_gap: {GAP}\n")
    report = check_problem(path)
    found = {f.file.rsplit("/", 1)[-1]: f for f in report.findings
             if f.check.startswith("verdict") and f.level in ("error", "info")}
    assert found["open.py"].level == "info", check_text.render(report)
    assert found["open.py"].message.startswith(f"known gap: {GAP} (got ")
    assert "; folder rejected expects RJ on at least one case" in found["open.py"].message
    assert found["closed.py"].level == "error"
    assert "the known gap is closed: it gets RJ" in found["closed.py"].message
    assert "remove its known_gap from submissions.yaml" in found["closed.py"].message
    assert [f.file.rsplit("/", 1)[-1] for f in errors(report)] == ["closed.py"]
    strength = [f for f in report.findings if f.check == "strength rejected/open.py"]
    assert [(f.level, f.message) for f in strength] == [
        ("info", f"no case catches it: a known gap ({GAP})")]
    text = check_text.render(report)
    assert "submissions get their expected verdicts (1 known gap)" in text
    assert "wrong submissions are caught (1 known gap)" in text


@pytest.mark.parametrize("entry, says", [
    ("  known_gap: ''\n", "known_gap must be a non-empty string"),
    ("  known_gap: [a, b]\n", "known_gap must be a non-empty string"),
    ("  known_gaps: why\n", "must be a mapping with permitted, required, reason, hint and/or known_gap"),
])
def test_a_bad_known_gap_names_the_file_and_line(tmp_path, entry, says):
    from judge.author import expectations

    folder = tmp_path / "submissions" / "p"
    (folder / "rejected").mkdir(parents=True)
    (folder / "rejected" / "cheat.py").write_text("def f(x):\n    return x\n")
    (folder / "submissions.yaml").write_text("# why\nrejected/cheat.py:\n" + entry)
    _, issues = expectations.discover(folder)
    assert [(p.name, line) for p, line, _ in issues] == [("submissions.yaml", 2)]
    assert says in issues[0][2]


# -- the reference's runs ---------------------------------------------------------------------------

def test_the_reference_runs_once_when_it_fills_the_cache(monkeypatch, fq_problem, tmp_path):
    """A cold check's fill of the compilation cache (a reference run on each share of the cases)
    gives the reference's outputs on every case: no other run of the reference follows; a fill
    that fails, or a cache filled already, leaves the outputs to a run of their own."""
    from judge.author import check
    from judge.errors import JudgeError
    from judge.grade import grading

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JUDGE_CACHE", "on")
    calls = []

    def run(problem, cases=None, *, fill_cache=False, bind_all=True, **kw):
        calls.append((len(cases or problem.cases), fill_cache, bind_all))
        return {c.index: {"value": c.index} for c in (cases if cases is not None else problem.cases)}

    monkeypatch.setattr(grading, "reference_outputs", run)
    filled = check._fill(fq_problem, 2, None)
    n = len(fq_problem.cases)
    assert sorted(calls) == sorted([(len(fq_problem.cases[0::2]), True, False),
                                    (len(fq_problem.cases[1::2]), True, False)])
    assert filled == {c.index: {"value": c.index} for c in fq_problem.cases} and len(filled) == n
    assert check._reference_outputs(fq_problem, None, None, filled) == filled
    assert len(calls) == 2  # no second run
    assert check._fill(fq_problem, 2, None) is None  # filled already: the outputs run alone
    assert check._reference_outputs(fq_problem, None, None, None) == filled and len(calls) == 3

    def failing(problem, cases=None, **kw):
        raise JudgeError("the reference failed")

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "other"))
    monkeypatch.setattr(grading, "reference_outputs", failing)
    assert check._fill(fq_problem, 2, None) is None


@pytest.mark.parametrize("cache", ["on", "off"])
def test_the_reference_run_waits_for_the_cache_warm_up(monkeypatch, fq_problem, cache):
    """The expected outputs' run of the reference starts once the compilation cache is filled
    from the reference (so it reads what that compiled), not beside the fill; with the cache
    off there is no fill to wait for."""
    from judge.author import check
    from judge.grade import grading

    calls = []
    monkeypatch.setenv("JUDGE_CACHE", cache)
    monkeypatch.setattr(grading, "warm_cache", lambda problem, parts=1, bind_all=True: calls.append("fill") or True)
    monkeypatch.setattr(grading, "reference_outputs",
                        lambda problem, **kw: calls.append("outputs") or {})
    assert check._reference_outputs(fq_problem, None) == {}
    assert calls == (["fill", "outputs"] if cache == "on" else ["outputs"])
