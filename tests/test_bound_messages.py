"""Bounds that admit the honest styles, and refusals that say what broke them: per_example_clip's
jax.jacfwd solution is accepted on every case; a size, equation or primitive rule names the value
(shape and dtype), the submission's line, the count and the bound at the dims where it fails
(``judge.worker.program`` carries the lines, ``judge.run.summary`` reads them, the rules word
them); and ``judge.author.corners`` traces an accepted solution at the corners of the dims the
cases leave concrete."""

import json
from dataclasses import replace
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from judge.author import corners as corners_check
from judge.grade import corners, grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.rules import forbidden_primitives, max_intermediate_size, no_unrolling
from judge.rules.base import TraceEvidence
from judge.run import summary
from judge.worker import program, protocol
from tests.helpers import ROOT

OLD_BOUND = "4 * size(X) + n * n + 4 * n + 4 * d + 16"


@pytest.fixture(scope="module")
def clip():
    return spec.load(ROOT / "problems" / "per_example_clip.yaml")


def _example_dims(problem):
    X = problem.examples[0].inputs["X"]
    return X.shape


def _grade(problem, tmp_path, source: str):
    path = tmp_path / "submission.py"
    path.write_text(source)
    return grading.grade(problem, path, examples_only=True, hints=False, use_cache=False)


# --- per_example_clip: jax.jacfwd is an honest style ------------------------------------------

def test_jacfwd_per_example_gradients_are_accepted_on_every_case(clip):
    """The Jacobian of the loss vector by forward mode pushes a (d + 1) x (d + 1) basis: the
    bound proved over every n, at n = 1, once refused it on the hidden cases with d >= 9."""
    path = ROOT / "submissions" / "per_example_clip" / "accepted" / "jacfwd_losses.py"
    result = grading.grade(clip, path, hints=False)
    assert result.verdict is Verdict.AC, [(c.label, c.reason) for c in result.cases if c.reason != "ok"]
    wide = [c for c in clip.hidden if (c.inputs["X"].shape[1] + 1) ** 2 > 8 * c.inputs["X"].shape[1] + 21]
    assert wide  # the cases where the old bound at n = 1 was under the basis


def test_the_bound_counts_the_jacfwd_basis_at_every_n_and_d(clip):
    rule = clip.rule("max_intermediate_size")
    for n in (1, 64):
        for d in (1, 16):
            shapes = {"w": (d,), "b": (), "X": (n, d), "y": (n,)}
            assert max_intermediate_size.bound(rule, clip.parameters, shapes) >= (d + 1) ** 2 + n * n
    assert "(d + 1) \\times (d + 1)" in clip.statement and "jax.jacfwd" in clip.statement


# --- messages: the value, its line, its count and the bound -----------------------------------

def test_a_size_refusal_names_the_value_its_line_its_count_and_the_bound(clip, tmp_path):
    n, d = _example_dims(clip)
    source = ("import jax\nimport jax.numpy as jnp\n\n\n"
              "def clipped_mean_grad(w, b, X, y, clip_norm):\n"
              "    buffer = jnp.zeros((64, 64)) + jnp.sum(X)\n"          # line 6
              "    g = jax.vmap(jax.grad(lambda w, x, t: 0.5 * (x @ w + b - t) ** 2), (None, 0, 0))(w, X, y)\n"
              "    return {'grad_w': jnp.mean(g, 0) + 0 * buffer[0, 0], 'grad_b': jnp.mean(b)}\n")
    result = _grade(clip, tmp_path, source)
    first = result.cases[0]
    assert first.reason == "intermediate_too_large"
    allowed = 4 * 1 * d + 1 + (d + 1) ** 2 + 4 + 4 * d + 16  # the bound at n = 1, the case's d
    assert (f"(64, 64) float32 from line 6 (made by " in first.message
            and f"has 4,096 elements; at n = 1, d = {d} this problem allows {allowed} (" in first.message), \
        first.message


def test_a_size_refusal_in_symbols_says_the_count_where_it_fails(clip, tmp_path):
    _, d = _example_dims(clip)
    source = ("import jax.numpy as jnp\n\n\n"
              "def clipped_mean_grad(w, b, X, y, clip_norm):\n"
              "    padded = jnp.pad(X, ((0, 64), (0, 0)))\n"              # line 5: (n + 64, d)
              "    return {'grad_w': jnp.sum(padded, 0) * 0 + w, 'grad_b': b}\n")
    message = _grade(clip, tmp_path, source).cases[0].message
    assert f"(n + 64, {d}) float32 from line 5" in message, message
    assert f"elements: {65 * d} at n = 1, d = {d}, where this problem allows" in message, message


def test_a_forbidden_primitive_names_the_primitive_and_its_line(clip, tmp_path):
    source = ("import jax\nimport jax.numpy as jnp\n\n\n"
              "def clipped_mean_grad(w, b, X, y, clip_norm):\n"
              "    total = jax.lax.fori_loop(0, 3, lambda i, c: c + jnp.sum(X), 0.0)\n"   # line 6
              "    return {'grad_w': w * 0 + total * 0, 'grad_b': b * 0}\n")
    first = _grade(clip, tmp_path, source).cases[0]
    assert first.reason == "forbidden_primitive"
    assert "uses scan (1 equation, first at line 6); this problem forbids while, scan" in first.message, \
        first.message


def test_an_equation_count_names_the_line_that_made_them(clip, tmp_path):
    source = ("import jax.numpy as jnp\n\n\n"
              "def clipped_mean_grad(w, b, X, y, clip_norm):\n"
              "    total = jnp.sum(X)\n"
              "    for k in range(300):\n"
              "        total = jnp.sin(total) + k\n"                        # line 7
              "    return {'grad_w': w * 0 + total * 0, 'grad_b': b * 0}\n")
    first = _grade(clip, tmp_path, source).cases[0]
    assert first.reason == "unrolled_loop"
    assert "more than the 400 a batched solution needs; line 7 makes 600 of them" in first.message, \
        first.message


def test_a_bound_at_a_case_s_own_shapes_reads_as_the_issue_words_it(clip):
    """The concrete check (a program traced at a case's shapes) with the bound before it counted
    the jacfwd basis: the message a student once needed."""
    rule = {"id": "max_intermediate_size", "bound": OLD_BOUND}
    value = summary.Value(shape=(17, 17), dtype="float32", primitive="convert_element_type", line=7)
    trace = TraceEvidence(label="at this case's shapes", shapes={"w": (16,), "b": (), "X": (1, 16), "y": (1,)},
                          program=summary.Program(equations=40, primitives={}, largest=(value,)))
    breach = max_intermediate_size.check(rule, trace, clip)
    assert breach.message == ("at this case's shapes: (17, 17) float32 from line 7 (made by "
                              "convert_element_type) has 289 elements; at d = 16, n = 1 this "
                              f"problem allows 149 ({OLD_BOUND})")


def test_messages_without_a_line_of_the_submission_name_the_primitive(clip):
    shapes = {"w": (2,), "b": (), "X": (3, 2), "y": (3,)}
    made = summary.Program(equations=900, primitives={"while": 2}, largest=())
    assert "while (2 equations)" in forbidden_primitives.check(
        {"primitives": ["while"]}, TraceEvidence(label="here", shapes=shapes, program=made), clip).message
    assert no_unrolling.check({"dim": "n", "max_equations": 400},
                              TraceEvidence(label="here", shapes=shapes, program=made), clip
                              ).message.startswith("here: the traced program has 900 equations, more "
                                                   "than the 400 a batched solution needs; a Python")


# --- the worker's summary carries the lines; the judge reads them -----------------------------

def test_the_summary_names_the_submission_s_lines(tmp_path):
    path = tmp_path / "submission.py"
    path.write_text("import jax\nimport jax.numpy as jnp\n\n\ndef f(w, X):\n"
                    "    y = X @ w\n"                                                  # line 6
                    "    for _ in range(20):\n        y = jnp.sin(y)\n"                # line 8
                    "    J = jax.jacfwd(lambda w: X @ w)(w)\n"                         # line 9
                    "    return J, jax.lax.fori_loop(0, 3, lambda i, c: c + 1.0, y)\n")  # line 10
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    closed = jax.make_jaxpr(namespace["f"])(jnp.ones(3), jnp.ones((2, 3)))
    found = program.summarize(closed, source=str(path))
    assert found["largest"][0]["shape"] == [3, 3] and found["largest"][0]["line"] == 9
    assert found["lines"]["sin"] == 8 and found["lines"]["scan"] == 10 and found["lines"]["dot_general"] == 6
    assert found["busiest"][0] == [8, 20]
    read = summary.program(found, "program")
    assert read.largest[0].line == 9 and read.lines["scan"] == 10 and read.busiest[0] == (8, 20)
    # without the submission's file, no line is claimed
    assert all(v["line"] is None for v in program.summarize(closed)["largest"])


@pytest.mark.parametrize("change", [
    {"largest": [{"shape": [2], "dtype": "float32", "primitive": "add", "line": 0}]},
    {"largest": [{"shape": [2], "dtype": "float32", "primitive": "add", "line": "7"}]},
    {"lines": {"add": -1}},
    {"busiest": [[3, 1]] * (protocol.MAX_BUSIEST + 1)},
    {"busiest": [[3]]},
])
def test_a_summary_with_malformed_lines_is_refused(change):
    raw = {"equations": 1, "primitives": {"add": 1}, "live": {"add": 1}, "largest": [], **change}
    with pytest.raises(protocol.ProtocolError):
        summary.program(raw, "program")



def test_a_summary_sent_again_is_read_once_and_a_near_copy_anew():
    """The summary every case of a key sends is decoded once: the same text again is the same
    frozen ``Program``; a summary that differs in anything, a type included (``true`` for
    ``1``), is decoded, and refused, on its own."""
    raw = {"equations": 1, "primitives": {"add": 1}, "live": {"add": 1},
           "largest": [{"shape": [2], "dtype": "float32", "primitive": "add", "line": 3}]}
    first = summary.program(raw, "case.program")
    assert summary.program(json.loads(json.dumps(raw)), "case.program") is first
    other = summary.program({**raw, "equations": 2}, "case.program")
    assert other.equations == 2 and first.equations == 1
    for forged in ({**raw, "equations": True}, {**raw, "equations": 1.0},
                   {**raw, "largest": [{**raw["largest"][0], "line": "3"}]}):
        with pytest.raises(protocol.ProtocolError):
            summary.program(forged, "case.program")
        with pytest.raises(protocol.ProtocolError):  # refused again: a refusal is not kept
            summary.program(forged, "case.program")
    assert summary.program(raw, "case.program") is first

# --- judge check: the corners of the dims the cases leave concrete ----------------------------

def test_corners_are_every_end_of_the_concrete_dims(clip):
    assert corners.corners(clip) == [{"d": 1}, {"d": 16}]
    names = [trace.name for _, trace in corners.planned(clip)]
    assert names == ["traced with n symbolic (d = 1)", "traced with n symbolic (d = 16)"]
    hvp = spec.load(ROOT / "problems" / "hvp_tanh.yaml")
    assert corners.corners(hvp) == [{"m": 1}, {"m": 16}]
    assert corners.corners(spec.load(ROOT / "problems" / "pairwise_sq_dists.yaml")) == [{}]


def test_a_corner_no_case_reaches_is_found_with_its_numbers(clip):
    """Under the bound that forgot jacfwd's basis, the jacfwd solution breaks it at d = 16,
    n = 1; under today's it fits at every corner."""
    path = ROOT / "submissions" / "per_example_clip" / "accepted" / "jacfwd_losses.py"
    old = replace(clip, rules=tuple({**r, "bound": OLD_BOUND} if r["id"] == "max_intermediate_size"
                                    else r for r in clip.rules))
    corner, breach = corners.first_breach(old, Path(path))
    assert corner == {"d": 16} and breach.reason == "intermediate_too_large"
    assert ("(17, 17) float32 from line 11 (made by convert_element_type) has 289 elements; at "
            f"n = 1, d = 16 this problem allows 149 ({OLD_BOUND})") in breach.message
    assert corners.first_breach(clip, Path(path)) is None


def test_the_corners_check_reports_an_accepted_solution_that_breaks_a_rule(clip):
    """`judge check`'s corners check: the reference and each submission expected to be accepted
    (whatever its grade), one error per solution that breaks a rule at a corner."""
    from judge.author import check, expectations

    accepted = ROOT / "submissions" / "per_example_clip" / "accepted"
    subs = {expectations.Submission(path=accepted / f"{name}.py", rel=f"accepted/{name}.py",
                                    folder="accepted", expectation=expectations.folder_expectation("accepted")): None
            for name in ("jacfwd_losses", "jacrev_losses")}
    old = replace(clip, rules=tuple({**r, "bound": OLD_BOUND} if r["id"] == "max_intermediate_size"
                                    else r for r in clip.rules))
    report = check.ProblemReport(problem=clip.id, path="problems/per_example_clip.yaml")
    corners_check.check_corners(report, old, subs, jobs=1)
    [found] = [c for c in report.checks if c.name == "corners"]
    errors = report.of(found)
    assert [Path(f.file).name for f in errors] == ["jacfwd_losses.py"]
    assert "at the corner d = 16 of the spec's dims: [intermediate_too_large]" in errors[0].message
    assert "has 289 elements; at n = 1, d = 16 this problem allows 149" in errors[0].message
    assert found.summary.startswith("2 of 3 accepted solutions (the reference included) fit every rule "
                                    "at the 2 corners of d in [1, 16], with 1 <= n <= 64 as symbols")


def test_a_corner_whose_program_an_accepted_grade_decided_on_is_not_traced_again(monkeypatch):
    """spectral_norm's dims are all symbolic: its one corner is the first example's program,
    which a grade accepted on every case has already passed the rules on; that solution is not
    traced again. A grade refused, or of fewer cases, decides nothing for the corner."""
    from types import SimpleNamespace

    from judge.author import check, expectations

    problem = spec.load(ROOT / "problems" / "spectral_norm.yaml")
    at = corners.planned(problem)
    assert len(at) == 1 and corners.corners(problem) == [{}]
    accepted = SimpleNamespace(verdict=Verdict.AC, cases=problem.cases)
    assert corners_check.unjudged(problem, at, accepted) == []
    for other in (None, SimpleNamespace(verdict=Verdict.AC, cases=problem.cases[:3]),
                  SimpleNamespace(verdict=Verdict.WA, cases=problem.cases)):
        assert corners_check.unjudged(problem, at, other) == at
    traced = []
    monkeypatch.setattr(corners_check, "first_breach",
                        lambda problem, path, *args: traced.append((Path(path).name, len(args[3]))))
    path = ROOT / "submissions" / "spectral_norm" / "accepted" / "scan_over_steps.py"
    subs = {expectations.Submission(path=path, rel="accepted/scan_over_steps.py", folder="accepted",
                                    expectation=expectations.folder_expectation("accepted")): accepted}
    report = check.ProblemReport(problem=problem.id, path="problems/spectral_norm.yaml")
    corners_check.check_corners(report, problem, subs, jobs=1)
    # the reference has no grade: traced at its corner; the accepted submission at none
    assert sorted(traced) == [("scan_over_steps.py", 0), (Path(problem.reference).name, 1)]
    assert "(1 of them accepted on every case" in report.checks[-1].summary


def test_a_refusal_on_a_hidden_case_is_shown_with_the_numbers_at_the_public_corners(clip):
    """A hidden case's message stays a fixed text (its shapes could carry hidden data out); the
    grade's message adds what the same rules find at the dims' ends, which are public."""
    from judge.grade.verdicts import HIDDEN_MESSAGES

    path = ROOT / "submissions" / "per_example_clip" / "accepted" / "jacfwd_losses.py"
    old = replace(clip, rules=tuple({**r, "bound": OLD_BOUND} if r["id"] == "max_intermediate_size"
                                    else r for r in clip.rules))
    result = grading.grade(old, path, hints=False)
    refused = [c for c in result.cases if c.reason != "ok"]
    assert refused and all(c.visibility == "hidden" for c in refused)
    assert {c.message for c in refused} == {HIDDEN_MESSAGES["intermediate_too_large"]}
    assert result.message.startswith(f"{refused[0].label}: {HIDDEN_MESSAGES['intermediate_too_large']}; "
                                     "at the extents this problem allows")
    assert ("traced with n symbolic (d = 16): (17, 17) float32 from line 11 (made by "
            "convert_element_type) has 289 elements; at n = 1, d = 16 this problem allows 149") in result.message


def test_the_explanation_at_the_corners_carries_nothing_from_a_hidden_case(clip, tmp_path):
    """An attack on the explanation: a value sized by the case's static clip_norm, built only
    when clip_norm is not an example's. The hidden cases are refused, and nothing sized by
    their clip_norm reaches a message: the corners are traced with the first example's values,
    where the submission has nothing hidden to show."""
    public = sorted({round(float(c.inputs["clip_norm"]), 6) for c in clip.examples})
    source = ("import jax\nimport jax.numpy as jnp\n\n"
              f"PUBLIC = {public!r}\n\n\n"
              "def clipped_mean_grad(w, b, X, y, clip_norm):\n"
              "    loss = lambda w, b, x, t: 0.5 * (x @ w + b - t) ** 2\n"
              "    gw, gb = jax.vmap(jax.grad(loss, (0, 1)), (None, None, 0, 0))(w, b, X, y)\n"
              "    f = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2, 1) + gb ** 2) / clip_norm)\n"
              "    extra = 0.0\n"
              "    if round(clip_norm, 6) not in PUBLIC:\n"
              "        extra = jnp.sum(jnp.zeros((100 + int(round(clip_norm * 1000)), 8))) * 0\n"
              "    return {'grad_w': jnp.mean(gw * f[:, None], 0) + extra, 'grad_b': jnp.mean(gb * f)}\n")
    path = tmp_path / "leak.py"
    path.write_text(source)
    result = grading.grade(clip, path, hints=False, use_cache=False)
    assert result.verdict is Verdict.RJ and result.reason == "intermediate_too_large", result.message
    assert all(c.verdict is Verdict.AC for c in result.cases if c.visibility == "example")
    hidden = {8 * (100 + int(round(float(c.inputs["clip_norm"]) * 1000))) for c in clip.hidden}
    for message in [result.message] + [c.message for c in result.cases]:
        for size in hidden:
            assert f"{size:,}" not in message and str(size) not in message, message
    assert "at the extents this problem allows" not in result.message  # nothing public to show


def test_the_corners_check_replays_stored_traces_and_decides_again(clip, tmp_path):
    """With `judge check`'s result cache, a solution's traces at the corners are stored once and
    replayed after; the rules decide again on the replay (a changed bound is seen)."""
    from judge.author import check, expectations
    from judge.grade.result_cache import ResultCache

    accepted = ROOT / "submissions" / "per_example_clip" / "accepted"
    subs = {expectations.Submission(path=accepted / "jacfwd_losses.py", rel="accepted/jacfwd_losses.py",
                                    folder="accepted", expectation=expectations.folder_expectation("accepted")): None}
    stored = ResultCache(where=tmp_path, secret=b"test key")
    # the same spec (its stored data), decided first under today's bound, then under the old one
    old = replace(clip, rules=tuple({**r, "bound": OLD_BOUND} if r["id"] == "max_intermediate_size"
                                    else r for r in clip.rules))
    reports = []
    for problem in (clip, old):
        report = check.ProblemReport(problem=clip.id, path="problems/per_example_clip.yaml")
        corners_check.check_corners(report, problem, subs, jobs=1, result_cache=stored)
        reports.append(report)
    assert stored.stored == 2 and stored.trace_hits == 2  # the reference and the submission
    first, second = (r.checks[-1] for r in reports)
    assert "traced by" not in first.summary and not reports[0].of(first)
    assert second.summary.endswith("(2 traced by an earlier check)")
    assert ["has 289 elements; at n = 1, d = 16 this problem allows 149" in f.message
            for f in reports[1].of(second)] == [True]
