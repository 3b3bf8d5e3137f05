"""Grading: run a submission on a problem's cases and decide a verdict for each.

``grade`` is what the CLI and the tests call. It builds the worker request (inputs only), runs
the worker (``judge.run.supervisor``), and turns each reported case into a ``CaseResult`` through the rules
(``rules``) and the comparisons (``compare``). Only this module decides verdicts.
"""

from __future__ import annotations

import os
import stat
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from judge.run import cache
from judge.run.settings import Settings, of as resolve_settings
from judge import rules
from judge.grade import compare, corners, example_diff, plan, traces
from judge.grade import hints as hints_mod
from judge.grade import intake, scoring, skips, trips
from judge.grade.request import build_request
from judge import gate
from judge.run.boundary import ErrorReport, Probes, escape
from judge.errors import JudgeError
from judge.run.supervisor import WorkerRun, run_worker
from judge.problem.model import Problem
from judge.grade.verdicts import CaseResult, GradeResult, Verdict, overall
# a case's result, worded (``judge.grade.outcome``)
from judge.grade.outcome import (LOG, error_text as _error_text, missing_case as _missing_case,
                                 result as _result, tasks_refused as _tasks_refused,
                                 with_diff as _with_diff)
from judge.worker import protocol

def check_submission_path(submission: str | Path | intake.Submission) -> intake.Submission:
    """The submission's content, read once (``judge.grade.intake``). JudgeError (a usage error)
    for a folder, a missing file or a file that is not Python source (``.py``), and for anything
    but a regular file of at most ``intake.MAX_BYTES`` (a symbolic link, wherever it points; a
    FIFO; a device), refused without being opened or read. Content already taken in (the batch
    reads it first) is returned as it is."""
    if isinstance(submission, intake.Submission):
        return submission
    path = Path(submission)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise JudgeError(f"{submission}: no such submission file") from None
    except OSError as exc:
        raise JudgeError(f"{submission}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise JudgeError(f"{submission}: is a folder, not a submission file; to grade every "
                         f"submission in a folder use `judge batch {submission} --problem ID`")
    if path.suffix != ".py":
        raise JudgeError(f"{submission}: not a Python file; a submission is a .py file "
                         f"(rename it to {path.stem}.py if it holds Python code)")
    try:
        return intake.read(path, label=str(submission))
    except FileNotFoundError:
        raise JudgeError(f"{submission}: no such submission file") from None


def select_cases(problem: Problem, examples_only: bool = False):
    return problem.examples if examples_only else problem.cases


def grade(problem: Problem, submission: str | Path | intake.Submission, *,
          examples_only: bool = False, time_per_case_s: float | None = None,
          sandbox: Settings | str | None = None, use_cache: bool | None = None,
          source_gate: bool | None = None, hints: bool = True,
          result_cache=None, compiles=None) -> GradeResult:
    """Grade one submission file. ``use_cache`` (default: on unless $JUDGE_CACHE=off) gives the
    worker the judge's compilation cache, filled first from the reference if needed.
    ``source_gate`` (default: on unless $JUDGE_SOURCE_GATE=off, which warns on stderr) checks
    the source first (``judge.gate``); a refused submission never runs. With ``hints``, a
    failing submission whose example outputs equal a hinted known submission's gets its hint
    (``judge.grade.hints``). ``sandbox``: the command's ``judge.run.settings.Settings``, or a
    ``--sandbox`` value, resolved once here, when the submission is about to run.
    ``submission`` is a path, or content taken in already (``intake.Submission``); either way
    what is graded is a private copy of what was read (``check_submission_path``).
    ``result_cache``: `judge check`'s result cache (``judge.grade.result_cache.ResultCache``), whose
    stored runs of the same content are replayed instead of run again (the verdicts are still
    decided here, against today's expected outputs and rules).
    ``compiles``: a ``judge.run.shared_compile.SharedCompiles`` (an author's own submissions,
    in ``judge check`` and ``judge mutants``): the worker lists the operations it had to compile,
    and they are compiled once into the cache for the workers after it."""
    taken = check_submission_path(submission)
    with intake.private_copy(taken) as path:
        return scoring.scored(problem, _grade_copy(
            problem, path, str(taken), examples_only=examples_only,
            time_per_case_s=time_per_case_s, sandbox=sandbox, use_cache=use_cache,
            source_gate=source_gate, hints=hints, result_cache=result_cache, compiles=compiles))


def _grade_copy(problem: Problem, path: Path, submission: str, *, examples_only: bool,
                time_per_case_s: float | None, sandbox: Settings | str | None,
                use_cache: bool | None, source_gate: bool | None, hints: bool,
                result_cache=None, compiles=None) -> GradeResult:
    """``grade`` on ``path``, the private copy of the file named ``submission``."""
    cases = select_cases(problem, examples_only)
    started = time.monotonic()
    gate_on, gate_source = gate.requested(source_gate)
    if not gate_on and source_gate is None:  # off by the environment, not by the caller
        gate.warn_off(gate_source)
    findings = gate.check_file(path, problem.allowed_imports) if gate_on else None
    if findings:  # the student's own code, not case data: shown in full on hidden cases too
        results = tuple(CaseResult(index=case.index, name=case.name, visibility=case.visibility,
                                   number=case.number, verdict=Verdict.RJ, reason="forbidden_construct",
                                   message=gate.summary(findings)) for case in cases)
        verdict, reason, message = overall(results)
        return GradeResult(problem=problem.id, submission=escape(str(submission)), verdict=verdict,
                           reason=reason, message=message, time_s=time.monotonic() - started,
                           cases=results)
    planned = plan.resolve(problem, cases)  # what grading needs of each case, resolved once
    request = trips.mark(skips.flag(build_request(problem, path, cases, planned), planned), problem, planned)
    cache_dir = _cache_for(problem, use_cache)
    if compiles is not None and cache_dir is not None:
        request["report_ops"] = True
    settings = resolve_settings(sandbox)  # after the gate and the cache: where the run begins
    timeouts = {"startup_timeout": problem.limits["startup_s"],
                "case_timeout": time_per_case_s or problem.limits["time_per_case_s"]}
    request, planned, run, trace_run = _runs(problem, path, planned, request, timeouts, settings, cache_dir, result_cache)
    if request.get("report_ops"):
        compiles.offer(run.ops)
    factors = {c["index"]: c["factor"] for c in request["cases"]}
    shown = intake.shown(path.name)  # the student chose it: escaped, one-to-one
    describe = lambda error: _error_text(error, shown)  # noqa: E731
    program_breach = traces.program_breach(planned, trace_run, describe) or trips.breach(problem, cases, run, planned, request)
    decided, made, beside = {}, {}, {}  # each made once per grade: see traces.symbolic, related, with_beside
    results = tuple(judge_case(problem, case, run, factors[case.index], shown, program_breach,
                               traces.related(planned, case, trace_run, describe, made),
                               traces.symbolic(problem, planned.of(case), run.cases.get(case.index),
                                               decided), planned.of(case), beside)
                    for case in cases)
    verdict, reason, message = overall(results)
    # a hidden case's refusal is a fixed text: the same rules at the public corners say more
    message += corners.explain(problem, results, path, settings, shown, result_cache)
    notes = ()
    if run.ready:
        notes = (f"worker: Python {run.ready.python}, JAX {run.ready.jax}",)
    fingerprints = hints_mod.example_fingerprints(problem, run)
    hint = _hint(problem, fingerprints, settings) if hints and verdict is not Verdict.AC else ""
    return GradeResult(problem=problem.id, submission=escape(str(submission)), verdict=verdict,
                       reason=reason, message=message, time_s=time.monotonic() - started,
                       cases=results, notes=notes, source_gate=gate_on, hint=hint,
                       example_fingerprints=fingerprints)


def _runs(problem: Problem, path: Path, planned: plan.Plan, request: dict, timeouts: dict,
          settings: Settings, cache_dir: Path | None, stored=None):
    """The submission's worker runs: (request as sent, the plan they ran, the main run, the
    trace run or None). With ``stored`` (``judge.grade.result_cache.ResultCache``), runs stored
    for the same request, content, sandbox, judge and JAX are replayed instead (the plan then
    holds the traces planned when they were stored), and new clean runs are stored."""
    content = path.read_bytes() if stored is not None else b""
    decide = skips.decider(problem, planned)  # the rules' answer to a program, before it runs
    if stored is not None:
        found = stored.find(problem, request, content, settings, timeouts,
                            traces.timeout(problem), decide)
        if found is not None:
            return found.request, replace(planned, wanted=tuple(found.wanted)), found.run, found.trace_run
    wanted = planned.wanted
    record = {"record": True} if stored is not None else {}  # the lines, to store them
    tracing = traces.request(problem, request, wanted)
    folded, run, trace_run = traces.fold(request, tracing), None, None
    if folded is not None:  # one worker traces the rules' programs first, then runs the cases
        run = run_worker(folded, **timeouts, sandbox=settings, limits=problem.limits,
                         cache_dir=cache_dir, decide=decide, **record)
        run = trace_run = run if traces.folded_whole(run, tracing) else None
    if run is None:  # else the rules' traces in a worker of their own, beside the cases'
        with ThreadPoolExecutor(max_workers=1) as pool:
            traced = pool.submit(run_worker, tracing, startup_timeout=timeouts["startup_timeout"],
                                 case_timeout=traces.timeout(problem), sandbox=settings,
                                 limits=problem.limits, cache_dir=cache_dir,
                                 **record) if tracing else None
            run = run_worker(request, **timeouts, sandbox=settings, limits=problem.limits,
                             cache_dir=cache_dir, decide=decide, **record)
            trace_run = traced.result() if traced else None
    if stored is not None:
        stored.store(problem, request, content, settings, timeouts, wanted, run, trace_run,
                     traces.timeout(problem), folded=trace_run is run)
    return request, planned, run, trace_run


def _hint(problem: Problem, fingerprints: tuple, sandbox: Settings) -> str:
    """The hint of a known mistake with the same example outputs; never fails a grade."""
    try:
        return hints_mod.match(problem, fingerprints, sandbox, grade=grade)
    except Exception:  # noqa: BLE001 - a hint is a courtesy: log, and grade without it
        LOG.exception("hints: matching failed for problem %s", problem.id)
        return ""


def _cache_for(problem: Problem, use_cache: bool | None) -> Path | None:
    if cache.enabled(use_cache):
        warm_cache(problem)
    return cache.available(use_cache)


def warm_cache(problem: Problem, parts: int = 1, bind_all: bool = True) -> bool:
    """Fill the compilation cache from the problem's reference solution, once per version of
    the spec and the reference. Returns True if it ran. A failing reference leaves no marker and
    is not an error here (``judge check`` reports it); grading then runs without a warm cache.
    ``parts``: that many reference runs at a time, each on every ``parts``-th case (`judge
    check` uses its cores: every submission waits for the fill, and compiling is serial).
    ``bind_all``: the reference binds every operation with JAX (see ``reference_outputs``);
    without it, only those the workers' evaluator binds ($JUDGE_EVALUATOR)."""
    return fill_cache(problem, parts, bind_all) is not None


def fill_cache(problem: Problem, parts: int = 1, bind_all: bool = True,
               sandbox: Settings | str | None = None) -> dict[int, dict] | None:
    """``warm_cache``, returning the reference's outputs on every case from the runs that
    filled it (what a run of its own gives: the same worker, evaluator and cases), so that a
    caller needing them runs the reference once; None where nothing ran (already warm, or
    filled by another process) or a run failed."""
    if cache.is_warm(problem):
        return None
    with cache.filling(problem) as needed:
        if not needed:
            return None
        groups = [problem.cases[i::parts] for i in range(max(1, min(parts, len(problem.cases))))]
        outputs: dict[int, dict] = {}
        try:
            with ThreadPoolExecutor(max_workers=len(groups)) as pool:
                for done in [pool.submit(reference_outputs, problem, group, sandbox=sandbox,
                                         fill_cache=True, bind_all=bind_all) for group in groups]:
                    outputs.update(done.result())
        except JudgeError:
            return None
        cache.mark_warm(problem)
    return outputs


def judge_case(problem: Problem, case, run: WorkerRun, factor: float | None = None,
               name: str | None = None, program_breach: rules.Breach | None = None,
               related=None, symbolic=None, planned: plan.CasePlan | None = None, beside=None) -> CaseResult:
    """One case's verdict (``_judge_case``), a failing example's expected output shown in the
    shape a submission returns (``example_diff.as_returned``). ``planned``: the case as the
    grade's plan resolved it (``judge.grade.plan``; resolved here when not given). ``beside``: the
    grade's decisions on its programs with the traces beside their cases (``traces.with_beside``)."""
    planned = planned or plan.case_plan(problem, case)
    result = _judge_case(problem, case, run, factor, name, program_breach, related, symbolic, planned, beside)
    if not result.details:
        return result
    return replace(result, details=example_diff.as_returned(result.details, problem, planned=planned))


def _judge_case(problem: Problem, case, run: WorkerRun, factor: float | None,
                name: str | None, program_breach: rules.Breach | None,
                related, symbolic, planned: plan.CasePlan, beside: dict | None = None) -> CaseResult:
    """One case's verdict; ``factor`` is what the case's backward rules were scaled by;
    ``name`` is the submission's file name, for messages; ``program_breach`` what the rules
    found at the probe shapes, ``related`` the traces made beside this case, by rule, and
    ``symbolic`` the program the case ran, traced with symbolic dims, or the rules' breach on
    it (``judge.grade.traces``). Reads only typed reports
    (``judge.run.boundary``), never a raw message. Order: errors and limits, then the output's
    form (keys, shapes, dtypes), then the rules on this case's program, then the values and
    probes, then what the rules found at the probe shapes (so a wrong answer stays WA)."""
    report = run.cases.get(case.index)
    if report is None:
        return _missing_case(case, run, name)
    time_s = run.case_times.get(case.index)
    details = {"stdout": report.stdout, "stderr": report.stderr}
    error = report.error
    if error is not None and error.kind == "symbolic":  # the program could not be traced at all
        if planned.trace is not None:
            breach = traces.symbolic_failure(planned.trace, error)
            return _result(case, breach.reason, breach.message, time_s, details)
    if error is not None:
        if _tasks_refused(run, case, error):
            return _result(case, "task_limit", f"the submission tried to have more than "
                                               f"{run.limits['tasks']} threads and processes at "
                                               f"once: {_error_text(error, name)}", time_s, details)
        reason = {"concretization": "traced_value_concretized", "exit": "exit_called"}.get(
            error.kind, "exception")
        text = _error_text(error, name)
        if reason == "traced_value_concretized":
            text = ("a traced value was turned into a Python value or NumPy array"
                    + (f" at line {error.line}" + (f" of {name}" if name else "") if error.line else "")
                    + (f": `{error.source.strip()}`" if error.source else "")
                    + f" ({error.type})" + _traced_note(problem, error))
        return _result(case, reason, text, time_s, details)
    if time_s is not None and time_s > problem.limits["time_per_case_s"]:
        return _result(case, "time_limit", f"took {time_s:.2f} s, limit {problem.limits['time_per_case_s']:g} s",
                       time_s, details)
    output = report.output
    malformed = protocol.find_malformed(output)
    if malformed is not None:
        return _result(case, "wrong_type", f"the output cannot be judged: it has "
                                            f"{protocol.Malformed.TEXT[malformed.why]}", time_s, details)
    slots = planned.outputs
    tolerances = {s.key: s.tolerance for s in slots}
    expected = {s.key: case.expected[s.key] for s in slots}
    got, kind, mismatch = output, problem.output_kind, None
    if planned.nested:  # trees: their leaves by path (``params["w"]``), as one dict
        got, mismatch = _output_leaves(problem, output, slots)
        kind = "dict"
    mismatch = mismatch or compare.check_form(got, expected, kind)
    if mismatch:
        details = _with_diff(details, case, output, mismatch)
        return _result(case, mismatch.reason, mismatch.message, time_s, details)
    # the rules decide on the program the case ran: traced with symbolic dims (``symbolic``,
    # decided once for every case that ran it), or at the case's own shapes
    if isinstance(related, rules.Breach):
        breach = related
    elif isinstance(symbolic, rules.Breach):
        breach = symbolic
    elif symbolic is not None:  # decided already; what rules traced beside this case, if any
        breach = traces.with_beside(problem, symbolic, related, beside) if related else None
    else:
        breach = rules.check_case(problem, rules.TraceEvidence(
            label="at this case's shapes", shapes=planned.shapes, program=report.program, report=report,
            output=output, factor=factor, related_by_rule=related or {}))
    if breach:
        return _result(case, breach.reason, breach.message, time_s, details)
    if report.skipped:  # not evaluated, and its program not refused: as if never reported
        return _missing_case(case, run, name)
    mismatch = compare.check_form_values(got, expected, kind, tolerances)
    if mismatch:
        details = _with_diff(details, case, output, mismatch)
        return _result(case, mismatch.reason, mismatch.message, time_s, details)
    for probe in problem.probes:
        failed = _check_probe(planned, probe, report.probes, name)
        if failed:
            reason, message, got, mismatch = failed
            if mismatch:
                details = _with_diff(details, case, got, mismatch)
            return _result(case, reason, message, time_s, details)
    if program_breach:  # the program's, found at the probe shapes: after this case's own verdict
        return _result(case, program_breach.reason, program_breach.message, time_s, details)
    return _result(case, "ok", "passed", time_s, details)


def _traced_note(problem: Problem, error: ErrorReport) -> str:
    """What a student needs after a traced value was made concrete: which parameters are
    traced, and what to write instead of a Python branch or conversion."""
    traced = [p.name for p in problem.parameters if p.traced]
    if not traced:
        return ""
    names = ", ".join(traced)
    verb = "is a traced value" if len(traced) == 1 else "are traced values"
    branch = error.type == "TracerBoolConversionError"
    instead = ("a Python if, while or and/or on it cannot be decided: compute both sides and "
               "choose with jnp.where, or use jax.lax.cond" if branch else
               "its value is not known when the function is traced: keep it a JAX array")
    return f"; {names} {verb} (abstract under jax.make_jaxpr): {instead}"


def _output_leaves(problem: Problem, output, slots) -> tuple[dict, compare.Mismatch | None]:
    """A returned output holding trees as its leaves by the slots' keys (``compare.leaves_of``)."""
    return compare.leaves_of(output, slots, "output" if problem.output_kind == "tree" else None)


def _probe_leaves(planned: plan.CasePlan, probe, got) -> tuple[list, dict, compare.Mismatch | None]:
    """A probe's result as the case's keys: (its slots, its values by key, a Mismatch when its
    nesting is not the slots'). The first model's one array is its one value, whatever it is."""
    slots = planned.probes[probe.name]
    if len(slots) == 1 and slots[0].returned == ():
        return slots, {slots[0].key: got}, None
    flat, mismatch = compare.leaves_of(got, slots, probe.name)
    return slots, flat, mismatch


def _check_probe(planned: plan.CasePlan, probe, reported: Probes | None,
                 name: str | None = None) -> tuple | None:
    """(reason, message, got, mismatch) when a derivative probe of the case ``planned`` fails,
    else None."""
    case = planned.case
    label = probe.name.upper()
    what = f"{label} probe (jax.{probe.name} with respect to {probe.wrt_text})"
    if reported is None:
        return ("probe_failed", f"the {label} probe was not reported", None, None)
    if probe.name in reported.errors:
        return ("probe_failed", f"the {what} raised "
                f"{_error_text(reported.errors[probe.name], name)}", None, None)
    got = reported.values.get(probe.name)
    slots, flat, mismatch = _probe_leaves(planned, probe, got)
    if mismatch:
        return (f"wrong_{probe.name}", f"{what}: {mismatch.message}", None, None)
    if not isinstance(flat[slots[0].key], np.ndarray):  # the first model's one array
        return (f"wrong_{probe.name}", f"{label}: expected an array, got {compare.describe(got)}",
                None, None)
    for s in slots:
        mismatch = compare.check_field(flat[s.key], case.expected[s.key], s.key, probe.tolerance)
        if mismatch:
            detail = mismatch.message.split(": ", 1)[-1] if s.key == probe.name else mismatch.message
            return (f"wrong_{probe.name}", f"{what}: {detail}", {s.key: flat[s.key]}, mismatch)
    return None


def reference_outputs(problem: Problem, cases=None, *, compiled: bool = False,
                      sandbox: Settings | str | None = None,
                      fill_cache: bool = False, bind_all: bool = True) -> dict[int, dict]:
    """Run the problem's reference solution on ``cases`` (default: all) in a worker and return
    each case's output fields (and probe results) as arrays. With ``compiled``, the worker
    evaluates each case under ``jax.jit`` instead of op by op, which lets XLA rewrite the
    arithmetic (division by a constant becomes multiplication by its reciprocal, for one).
    With ``fill_cache`` the run writes the judge's compilation cache (see ``judge.run.cache``),
    binding every operation with JAX (the NumPy evaluator still leaves some to JAX, at a NaN or
    a subnormal); with ``bind_all`` false, only those the workers' evaluator binds (what most
    grades read; a compile for the others, at a NaN, is left to the worker that meets it).
    Raise JudgeError naming the reference if it fails."""
    cases = problem.cases if cases is None else cases
    ref = problem.reference
    if not ref.is_file():
        raise JudgeError(f"{ref}: reference solution not found (problem {problem.id})")
    planned = plan.resolve(problem, cases, traces=False)  # its values only: no rule decides
    request = build_request(problem, ref, cases, planned)
    request["compiled"] = compiled
    request["store_ops"] = bool(fill_cache)  # its cache writable: it stores what it compiles
    if fill_cache and bind_all:  # every operation bound by JAX: the cache holds what any compiles to
        request["evaluator"] = "jax"
    request["message_bytes"] = protocol.MAX_MESSAGE_BYTES  # trusted; expected outputs may be missing
    run = run_worker(request, startup_timeout=problem.limits["startup_s"],
                     case_timeout=problem.limits["time_per_case_s"], sandbox=sandbox,
                     limits=problem.limits, cache_dir=cache.available(), cache_writable=fill_cache)
    outputs = {}
    for case in cases:
        report = run.cases.get(case.index)
        where = f"{ref}: the reference failed on {case.label} ({case.name})"
        if report is None:
            failed = judge_case(problem, case, run, planned=planned.of(case))
            raise JudgeError(f"{where}: {failed.verdict.value} {failed.message}")
        if report.error is not None:
            raise JudgeError(f"{where}: {_error_text(report.error, ref.name)}")
        output = report.output
        malformed = protocol.find_malformed(output)
        if malformed is not None or (problem.output_kind != "array") != isinstance(output, dict):
            raise JudgeError(f"{where}: it returned {output!r}, not a {problem.output_kind}")
        if planned.of(case).nested:
            found, mismatch = _output_leaves(problem, output, planned.of(case).outputs)
            if mismatch:
                raise JudgeError(f"{where}: {mismatch.message}")
            outputs[case.index] = found
        else:
            outputs[case.index] = dict(output) if problem.output_kind == "dict" else {"value": output}
        for probe in problem.probes:
            probes = report.probes
            if probes is None or probe.name in probes.errors:
                raise JudgeError(f"{ref}: the reference's {probe.name.upper()} probe failed on "
                                 f"{case.label} ({case.name})" +
                                 (f": {_error_text(probes.errors[probe.name])}" if probes else ""))
            _, found, mismatch = _probe_leaves(planned.of(case), probe, probes.values.get(probe.name))
            if mismatch:
                raise JudgeError(f"{where}: its {probe.name.upper()} probe: {mismatch.message}")
            outputs[case.index].update(found)
    return outputs
