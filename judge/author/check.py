"""`judge check`: verify a whole problem package before it is published.

For one problem, in order: the spec against the JSON Schema; every case against the parameters'
constraints; every stored expected output against a fresh run of the reference solution; every
known submission against the verdict its folder (or ``submissions.yaml``) names; test strength
(which cases catch each wrong submission); and the time limit against the slowest accepted
submission. Every result is a ``Finding`` attached to a named check, so reports can show one
line per check and CI systems one test case per check.

Submissions and the reference run in worker subprocesses (``grading``); ``jobs`` of them at a
time. This process never imports JAX.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from judge.grade import compare, grading
from judge.author import (corners, expectations, hint_check, programs, related_check, rule_check,
                          scoring_check, strength)
from judge.problem import layout, spec
from judge import gate
from judge.errors import JudgeError, SpecError
from judge.author.findings import ERROR, INFO, WARNING, shown
from judge.grade.verdicts import GradeResult, Verdict, plural
from judge.run import cache, shared_compile
from judge.run.settings import of as resolve_settings
from judge.problem.model import case_label
from judge.problem.casefile import short
from judge.reports import check_text
SCHEMA_SHOWN = "judge/schema/problem.schema.json"


@dataclass
class Finding:
    check: str          # the name of the check it belongs to
    level: str          # "error", "warning" or "info"
    file: str           # as shown: relative to the current directory where possible
    message: str
    line: int | None = None
    #: the graded submission behind the finding, as data (its verdict and per-case results);
    #: reports condense it under the finding (``judge.reports.check_text.details``)
    details: GradeResult | None = None

    @property
    def where(self) -> str:
        return self.file + (f":{self.line}" if self.line else "")


@dataclass
class Check:
    name: str           # "schema", "cases", "expected", "submissions", "verdict <file>", ...
    group: str          # checks of one group are summarised together in text reports
    file: str = ""      # the file the check is about, as shown
    summary: str = ""   # what was verified, for a passing check
    skipped: str = ""   # why the check could not run
    time_s: float = 0.0


@dataclass
class ProblemReport:
    problem: str
    path: str
    checks: list[Check] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    time_s: float = 0.0
    source_gate: bool = True  # False: ``--source-gate off``, shown by every report of the check

    def count(self, level: str) -> int:
        return sum(1 for f in self.findings if f.level == level)

    @property
    def errors(self) -> int:
        return self.count(ERROR)

    @property
    def warnings(self) -> int:
        return self.count(WARNING)

    def of(self, check: Check) -> list[Finding]:
        return [f for f in self.findings if f.check == check.name]

    def add(self, name: str, group: str | None = None, file=None) -> Check:
        check = Check(name, group or name, shown(file) if file else self.path)
        self.checks.append(check)
        return check

    def find(self, check: Check, level: str, file, message: str, line=None, details=None) -> None:
        self.findings.append(Finding(check.name, level, shown(file), message, line, details))


def problem_paths(names: list[str]) -> list[Path]:
    """Spec files for ids or paths; all of ``problems/`` when none is named. Raise JudgeError."""
    if names:
        return [spec.resolve(n) for n in names]
    folder = spec.find_root() / "problems"
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise JudgeError(f"no problem specs (*.yaml) in {folder}")
    return paths


def check_problem(path, jobs: int = 1, progress=None, source_gate: bool = True,
                  mutants: bool = False, sandbox=None, result_cache=None) -> ProblemReport:
    """Run every check on the problem whose spec is ``path``. ``progress(text)``, if given, is
    told about each graded submission. ``sandbox``: the command's ``judge.run.settings.Settings``,
    or a ``--sandbox`` value (default: $JUDGE_SANDBOX, else auto), resolved once here.

    With ``source_gate`` (``judge.gate``), submissions expected to be accepted on every
    case are graded with the gate on, as a student's would be: a refusal is an error, since a
    student submitting the same code would get ``RJ``. The others are the author's own attacks
    and mistakes, kept to show that the *cases and rules* catch them: they are graded with the
    gate off (quietly), so a refusal by the gate neither hides a weak case from the strength
    check nor stops a run-time error from being exercised; what the gate would refuse is noted.
    The reference is trusted and never gated; a note says when the gate would refuse it.
    Without ``source_gate`` nothing is graded with the gate, but a submission expected to be
    accepted that the gate would refuse still gets a warning: students would get ``RJ``.
    With ``mutants``, a ``mutants`` check grades mutants of the reference (``judge.author.mutants_run``)
    and warns about each survivor. ``result_cache`` (``judge.grade.result_cache.ResultCache``):
    the reference's outputs and the submissions' worker runs stored by an earlier check are
    reused where nothing they depend on changed, and new ones stored (None: everything runs)."""
    started = time.monotonic()
    path = Path(path).resolve()
    report = ProblemReport(problem=path.stem, path=shown(path), source_gate=source_gate)
    loaded = _spec_and_cases(report, path)
    if loaded is None:
        for name in ("expected", "submissions", "strength", "time limit"):
            report.add(name).skipped = "the spec could not be loaded"
    else:
        report.problem = loaded.problem.id
        related_check.check_related(report, loaded)
        scoring_check.check_scoring(report, loaded)
        programs.check_programs(report, loaded)
        _run(report, loaded, max(1, jobs), progress or (lambda text: None), source_gate,
             resolve_settings(sandbox), result_cache)
        if mutants:
            from judge.author.mutants_check import check_mutants

            check_mutants(report, loaded.problem, max(1, jobs), progress or (lambda text: None))
    report.time_s = time.monotonic() - started
    return report


@dataclass
class Loaded:
    """A problem holding only its valid cases (each numbered as in the spec), and the YAML nodes
    (for line numbers)."""

    problem: spec.Problem
    nodes: object

    @staticmethod
    def label(case) -> str:
        """``example N (name)`` or ``hidden N (name)``: N is the case's position in its list of
        the spec, as `judge grade` says; the author sees hidden names too."""
        return case_label(case, named=True)

    def line(self, case, *more) -> int | None:
        key = "examples" if case.visibility == "example" else "hidden"
        return spec.line_of(self.nodes, [key, case.number, *more])


# -- the spec and its cases ---------------------------------------------------------------------

def _spec_error(report, check, path, exc: SpecError, suffix: str = "") -> None:
    message = f"{exc.where}: {exc.problem}" if exc.steps is not None else exc.problem
    report.find(check, ERROR, path, message + suffix, exc.line)


def _spec_and_cases(report: ProblemReport, path: Path) -> Loaded | None:
    """Checks 1 and 2; None when the spec cannot be built."""
    schema = report.add("schema")
    t0 = time.monotonic()
    try:
        data, nodes = spec.read_yaml(path)
    except SpecError as exc:
        _spec_error(report, schema, path, exc)
        report.add("cases").skipped = "the spec could not be read"
        return None
    for exc in spec.schema_violations(data, nodes, path):
        _spec_error(report, schema, path, exc)
    if isinstance(data.get("id"), str) and data["id"] != path.stem:
        report.find(schema, ERROR, path, f"id: {data['id']!r} differs from the file name "
                                         f"{path.name!r} (the spec must be problems/<id>.yaml)",
                    spec.line_of(nodes, ["id"]))
    schema.time_s = time.monotonic() - t0
    cases = report.add("cases")
    if report.of(schema):
        cases.skipped = "the spec does not match the schema"
        return None
    schema.summary = f"the spec matches the schema {SCHEMA_SHOWN}"

    t0 = time.monotonic()
    try:
        problem, bad = spec.build(data, path, nodes, collect=True)
    except SpecError as exc:
        _spec_error(report, cases, path, exc)
        return None
    for exc in bad:  # every constraint violation of every case (one bad case hides no other)
        key, i = exc.steps[:2]
        name = data[key][i].get("name") or f"{key}[{i}]"
        _spec_error(report, cases, path, exc, f" (case {name})")
    valid = problem.cases
    total = sum(len(data.get(key) or []) for key in ("examples", "hidden"))
    n_ex = sum(1 for c in valid if c.visibility == "example")
    cases.summary = (f"{plural(len(valid), 'case')} ({plural(n_ex, 'example')}, "
                     f"{len(valid) - n_ex} hidden) fit the constraints")
    if len(valid) < total:
        cases.summary = f"{total - len(valid)} of {total} cases are invalid and left out of the runs"
    cases.time_s = time.monotonic() - t0
    return Loaded(problem, nodes)


# -- runs: reference and submissions ------------------------------------------------------------

def _run(report: ProblemReport, loaded: Loaded, jobs: int, progress, source_gate: bool = True,
         settings=None, result_cache=None) -> None:
    problem = loaded.problem
    expected = report.add("expected")
    found = report.add("submissions")
    folder = problem.path.parent.parent / "submissions" / problem.id
    subs, issues = expectations.discover(folder) if folder.is_dir() else ([], [])
    if not folder.is_dir():
        report.find(found, WARNING, folder, "no submissions folder: nothing shows that the cases "
                                            "accept a right solution and catch wrong ones")
    for file, line, message in issues:
        report.find(found, ERROR, file, message, line)
    found.summary = f"{plural(len(subs), 'submission')} found"

    # Every run reads the compilation cache the reference fills: filled first, on every core
    filled = _fill(problem, jobs, settings)
    pool = ThreadPoolExecutor(max_workers=jobs)
    compiles = shared_compile.start()  # what one submission compiled, the next one loads
    try:
        t0 = time.monotonic()
        hits = result_cache.hits if result_cache is not None else 0
        reference_hits = result_cache.reference_hits if result_cache is not None else 0
        ref_future = pool.submit(_reference_outputs, problem, settings, result_cache, filled)
        gated = {s.rel: source_gate and s.expectation.permitted == {Verdict.AC} for s in subs}
        futures = [(s, pool.submit(_timed_grade, problem, s, progress, gated[s.rel], settings,
                                   result_cache, compiles))
                   for s in subs]
        _compare_reference(report, expected, loaded, ref_future)
        if result_cache is not None and result_cache.reference_hits > reference_hits:
            expected.summary += " (its outputs stored by an earlier check)"
        if source_gate:
            _gate_note(report, expected, problem, problem.reference, "the reference (trusted, "
                       "never gated) would be refused if a student submitted it")
        expected.time_s = time.monotonic() - t0
        results = {}
        for sub, future in futures:
            check = report.add(f"verdict {sub.rel}", "verdicts", sub.path)
            try:
                result, check.time_s = future.result()
            except Exception as exc:  # a JudgeError, or anything else: report it and go on
                report.find(check, ERROR, sub.path, f"could not be graded: {exc}")
                continue
            results[sub] = result
            check.summary = f"{result.verdict.value}: {expectations.case_counts(result)}"
            if not source_gate and sub.expectation.permitted == {Verdict.AC}:
                _gate_note(report, check, problem, sub.path, "the source gate would refuse it "
                           "(graded with --source-gate off; a student submitting it would get "
                           "RJ forbidden_construct)", WARNING)
            elif source_gate and not gated[sub.rel]:
                _gate_note(report, check, problem, sub.path, "the source gate refuses it (a "
                           "student would get RJ forbidden_construct); graded with the gate "
                           "off, so the cases and rules behind it are checked")
            why = expectations.unmet(sub.expectation, result, loaded.label)
            gap = expectations.gap_note(sub.expectation, result, why)
            if gap:  # recorded in submissions.yaml: a note while it holds, an error once closed
                report.find(check, ERROR if gap[0] == "error" else INFO, sub.path, gap[1])
                check.summary = f"{check_text.GAP}; {check.summary}"
            elif why:
                report.find(check, ERROR, sub.path, why, details=result)
            elif sub.expectation.reasons:  # say which of the allowed reasons it got
                got = ", ".join(expectations.matched_reasons(sub.expectation, result))
                allowed = ", ".join(sorted(sub.expectation.reasons))
                which = "the reason" if len(sub.expectation.reasons) == 1 else "one of the reasons"
                report.find(check, INFO, sub.path, f"{result.verdict.value} [{got}]: {which} "
                            f"{expectations.OVERRIDES_FILE} names ({allowed})")
    finally:  # on an interrupt, do not start the runs still queued
        pool.shutdown(wait=True, cancel_futures=True)
        if compiles is not None:
            compiles.close()
    if result_cache is not None and result_cache.hits > hits:
        found.summary += f" ({result_cache.hits - hits} graded from stored runs)"
    strength.check_strength(report, problem, results)
    strength.check_time_limit(report, problem, results, jobs)
    hint_check.check_hints(report, problem, results)
    rule_check.check_rules(report, problem, results)
    corners.check_corners(report, problem, results, jobs, settings, result_cache)


def _gate_note(report, check, problem, path, what: str, level: str = INFO) -> None:
    findings = gate.check_file(path, problem.allowed_imports) if Path(path).is_file() else None
    if findings:
        report.find(check, level, path, f"{what}: {gate.summary(findings, limit=2)}",
                    findings[0].line)


def _reference_outputs(problem, settings, result_cache=None, filled=None) -> dict:
    """The reference's outputs on every case: stored ones from ``result_cache`` when the
    reference, the cases' inputs, the sandbox, the judge and JAX are unchanged, else those of
    the runs that filled the compilation cache (``filled``, from ``_fill``), else a run
    (``grading.reference_outputs``); stored for next time. A run waits for the compilation
    cache's warm-up from the reference (``grading.warm_cache``, which the first submission's
    grade asks for too), so it reads what that compiled instead of compiling it again beside it."""
    def run():
        if filled is not None:
            return filled
        _warm(problem)
        return grading.reference_outputs(problem, sandbox=settings)

    if result_cache is None:
        return run()
    from judge.grade.request import build_request
    from judge.run.settings import of as settings_of

    settings = settings_of(settings)
    request = build_request(problem, problem.reference, problem.cases)
    outputs = result_cache.find_reference(problem, request, settings, {})
    if outputs is None:
        outputs = run()
        result_cache.store_reference(problem, request, settings, {}, outputs)
    return outputs


def _warm(problem, jobs: int = 1) -> None:
    """Fill the compilation cache from the reference, unless the cache is off or filled:
    ``jobs`` reference runs at a time, each on a share of the cases, binding with JAX what the
    check's workers bind (the operations the NumPy evaluator computes are not compiled)."""
    if cache.enabled():
        grading.warm_cache(problem, parts=jobs, bind_all=False)


def _fill(problem, jobs: int, settings) -> dict | None:
    """``_warm``, keeping the reference's outputs on every case (``grading.fill_cache``), so
    that it runs once. None where nothing ran (the cache is off or filled), or where a part
    failed: the reference's own run reports it."""
    if not cache.enabled():
        return None
    return grading.fill_cache(problem, parts=jobs, bind_all=False, sandbox=settings)


def _timed_grade(problem, sub, progress, source_gate: bool = True, settings=None,
                 result_cache=None, compiles=None):
    t0 = time.monotonic()
    result = grading.grade(problem, sub.path, source_gate=source_gate, hints=False,
                           sandbox=settings, result_cache=result_cache, compiles=compiles)
    elapsed = time.monotonic() - t0
    progress(f"{problem.id}: {sub.rel}: {result.verdict.value} in {elapsed:.1f}s")
    return result, elapsed


def _compare_reference(report, check, loaded: Loaded, future) -> None:
    problem = loaded.problem
    ref = problem.reference
    try:
        outputs = future.result()
    except Exception as exc:  # JudgeError names the reference and the case; anything else too
        message = str(exc).removeprefix(f"{ref}: ")
        report.find(check, ERROR, ref, message if isinstance(exc, JudgeError)
                    else f"the reference run failed: {type(exc).__name__}: {exc}")
        return
    unchecked, within = set(), []
    for case in problem.cases:
        slots = {s.key: s for s in layout.expected_slots(problem, case.inputs)}
        got_all = outputs.get(case.index, {})
        if not isinstance(got_all, dict):
            report.find(check, ERROR, ref, f"{loaded.label(case)}: the reference returned "
                                           f"{type(got_all).__name__}, not a dict")
            continue
        for name, stored in case.expected.items():
            if name not in got_all:
                unchecked.add(name)
                continue
            slot = slots.get(name)
            steps = ["expected", *(slot.path if slot else (name,))]
            diff = _difference(got_all[name], stored, ".".join(map(str, steps)), slot.tolerance if slot else {})
            if diff and diff[0] is INFO:
                within.append((case, diff[1], loaded.line(case, *steps, *diff[2])))
            elif diff:
                level, text, index = diff
                report.find(check, level, problem.path, f"{loaded.label(case)}: {text}",
                            loaded.line(case, *steps, *index))
    if within:  # one note: XLA's float code differs between JAX releases and machines
        case, text, line = within[0]
        report.find(check, INFO, problem.path,
                    f"{len(within)} stored outputs differ from what the reference computes with "
                    f"this JAX only within the problem's tolerance (grading is unaffected), first "
                    f"{loaded.label(case)}: {text}; outputs stored with another JAX release or on "
                    f"another machine do that; `judge fill {problem.id} --refresh --write` "
                    f"stores this one's", line)
    for name in sorted(unchecked):
        report.find(check, INFO, problem.path, f"stored {name!r} results are not compared: the "
                                               f"reference run does not report them")
    differ = {f.message.split(":")[0] for f in report.of(check) if f.level == ERROR}
    close = f" ({len(within)} within the tolerance only)" if within else ""
    check.summary = (f"{len(differ)} of {len(problem.cases)} cases differ from what {shown(ref)} "
                     "computes" if differ else
                     f"{len(problem.cases)} stored outputs equal what {shown(ref)} computes{close}")


def _difference(got, stored: np.ndarray, name: str, tolerance: dict):
    """(level, message, index of the first differing entry) when the reference's ``got`` is not
    exactly the stored value: INFO when every entry is within ``tolerance`` (the last bits of a
    float, which XLA computes differently across JAX releases), WARNING when only the sign of a
    zero that grading ignores differs, else ERROR."""
    signed_zero = tolerance.get("signed_zero", False)
    if not isinstance(got, np.ndarray):
        return ERROR, f"{name}: the reference returned {type(got).__name__}, not an array", ()
    problem = compare.check_shape(got, stored, name) or compare.check_dtype(got, stored, name)
    if problem:
        return ERROR, f"{problem.message.replace(', expected', ' from the reference, stored')}", ()
    exact = compare.close_mask(got, stored, 0.0, 0.0, signed_zero=True)
    if exact.all():
        return None
    loose = compare.close_mask(got, stored, 0.0, 0.0, signed_zero=False)
    bad = np.argwhere(~exact)
    idx = tuple(int(i) for i in bad[0])
    where = ",".join(map(str, idx))
    # each entry in its own dtype's shortest repr: a float32 2.6 is 2.6, not 2.5999999046325684
    text = (f"{name}[{where}]: stored {short(stored[idx])!r}, the reference computes "
            f"{short(got[idx])!r} ({len(bad)} of {stored.size} entries differ)")
    if loose.all() and not signed_zero:
        return WARNING, text + "; only the sign of zero differs, which grading ignores here", idx
    if (tolerance.get("rtol") or tolerance.get("atol")) and compare.close_mask(
            got, stored, tolerance.get("rtol", 0.0), tolerance.get("atol", 0.0), signed_zero).all():
        return INFO, text, idx
    return ERROR, text, idx
