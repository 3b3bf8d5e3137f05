"""Grading: run a submission on a problem's cases and decide a verdict for each.

``grade`` is what the CLI and the tests call. It builds the worker request (inputs only), runs
the worker (``runner``), and turns each reported case into a ``CaseResult`` through the rules
(``rules``) and the comparisons (``checks``). Only this module decides verdicts.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from . import cache, checks, rules
from .errors import JudgeError
from .runner import WorkerRun, run_worker
from .spec import Problem
from .verdicts import REASONS, CaseResult, GradeResult, Verdict, overall
from .worker import protocol

CAPTURE_BYTES = 4096


def build_request(problem: Problem, submission: Path, cases) -> dict:
    grad_rule = problem.rule("custom_vjp_grads")
    return {
        "protocol": protocol.PROTOCOL,
        "submission": str(submission),
        "entry_point": problem.entry_point,
        "parameters": [{"name": p.name, "traced": p.traced} for p in problem.parameters],
        "grad_rule": ({"field": grad_rule["field"], "cotangent": grad_rule.get("cotangent", "cotangent")}
                      if grad_rule else None),
        "probes": ({"wrt": problem.probes[0].wrt, "names": [p.name for p in problem.probes]}
                   if problem.probes else None),
        "capture_bytes": CAPTURE_BYTES,
        # examples come first; the runner holds the rest back until they are reported
        "public_cases": sum(1 for c in cases if c.visibility == "example"),
        "cases": [{"index": c.index, "args": protocol.encode_args(c.inputs),
                   "probe_args": protocol.encode_args(c.probe_inputs),
                   "factor": rules.draw_factor()} for c in cases],
    }


def select_cases(problem: Problem, examples_only: bool = False):
    return problem.examples if examples_only else problem.cases


def grade(problem: Problem, submission: str | Path, *, examples_only: bool = False,
          time_per_case_s: float | None = None, sandbox: str | None = None,
          use_cache: bool | None = None) -> GradeResult:
    """Grade one submission file. ``use_cache`` (default: on unless $JUDGE_CACHE=off) gives the
    worker the judge's compilation cache, filled first from the reference if needed."""
    path = Path(submission).resolve()
    if not path.is_file():
        raise JudgeError(f"{submission}: no such submission file")
    cases = select_cases(problem, examples_only)
    started = time.monotonic()
    request = build_request(problem, path, cases)
    factors = {c["index"]: c["factor"] for c in request["cases"]}
    run = run_worker(request,
                     startup_timeout=problem.limits["startup_s"],
                     case_timeout=time_per_case_s or problem.limits["time_per_case_s"],
                     sandbox=sandbox, limits=problem.limits, cache_dir=_cache_for(problem, use_cache))
    results = tuple(judge_case(problem, case, run, factors[case.index]) for case in cases)
    verdict, reason, message = overall(results)
    notes = ()
    if run.ready:
        notes = (f"worker: Python {run.ready.get('python')}, JAX {run.ready.get('jax')}",)
    return GradeResult(problem=problem.id, submission=str(submission), verdict=verdict,
                       reason=reason, message=message, time_s=time.monotonic() - started,
                       cases=results, notes=notes)


def _cache_for(problem: Problem, use_cache: bool | None) -> Path | None:
    if cache.enabled(use_cache):
        cache.warm(problem)
    return cache.available(use_cache)


#: What a hidden case's report says: nothing derived from its data or the submission's messages,
#: which could carry hidden inputs or expected outputs out.
HIDDEN_MESSAGES = {
    "ok": "passed", "wrong_type": "the output has the wrong type",
    "wrong_keys": "the output has the wrong keys", "wrong_shape": "an output has the wrong shape",
    "wrong_dtype": "an output has the wrong dtype", "wrong_value": "output values differ",
    "exception": "the submission raised an exception", "exit_called": "the submission called exit",
    "traced_value_concretized": "a traced value was turned into a Python value or NumPy array",
    "grads_not_from_backward": "the gradients do not come from the custom_vjp backward rule",
    "wrong_vjp": "the VJP differs", "wrong_jvp": "the JVP differs",
    "probe_failed": "a derivative probe raised an exception",
}


def _result(case, reason: str, message: str, time_s=None, details=None, *, field=None,
            line=None) -> CaseResult:
    if case.visibility == "hidden" and reason in HIDDEN_MESSAGES:
        message = HIDDEN_MESSAGES[reason] + (f" ({field})" if field else "") + \
            (f" at line {line} of the submission" if line else "")
    return CaseResult(index=case.index, name=case.name, visibility=case.visibility,
                      verdict=REASONS[reason], reason=reason, message=message, time_s=time_s,
                      details=(details or {}) if case.visibility == "example" else {})


def _error_text(error: dict) -> str:
    where = f" at line {error['line']}" if error.get("line") else ""
    source = f" ({error['source'].strip()})" if error.get("source") else ""
    return f"{error.get('type', 'error')}{where}{source}: {error.get('message', '')}".strip()


def _missing_case(case, run: WorkerRun) -> CaseResult:
    """No result for this case: decide why from how the worker ended.

    A limit, tampering or the end of the process decides every case not reported before it.
    Text that came from the worker after the submission was imported (a halt's detail) is shown
    for examples only: on a hidden case it could carry hidden data out.
    """
    import signal

    limits, halt = run.limits, run.halt or {}
    detail = f" ({halt['detail']})" if halt.get("detail") and case.visibility == "example" else ""
    if run.tampered:
        return _result(case, "channel_tampered",
                       f"the result channel was tampered with: {run.tampered}")
    if run.protocol_error:
        return _result(case, "worker_protocol", f"the worker broke the result protocol: {run.protocol_error}")
    if halt.get("cause") == "instrument_tampered":
        return _result(case, "instrument_tampered", "the submission replaced functions the judge's "
                                                    f"instruments rely on{detail}")
    if run.output_exceeded:
        return _result(case, "output_limit", f"output limit exceeded: stdout and stderr passed "
                                             f"{limits['output_kb']} KiB")
    if halt.get("cause") == "output_limit" or run.signal == signal.SIGXFSZ:
        return _result(case, "output_limit", f"output limit exceeded: the captured output or a "
                                             f"file passed {limits['output_kb']} KiB{detail}")
    if halt.get("cause") == "memory_limit":
        return _result(case, "memory_limit", f"memory limit exceeded: {limits['memory_mb']} MiB of "
                                             f"address space{detail}")
    if run.timed_out:
        if run.timeout_phase == "startup":
            return _result(case, "time_limit", "the worker did not finish importing the submission in time")
        return _result(case, "time_limit", "time limit exceeded (the worker was killed)")
    loaded = run.loaded
    if loaded and not loaded.get("ok"):
        error = loaded.get("error") or {}
        kind = error.get("kind")
        reason = {"syntax_error": "syntax_error", "missing_entry_point": "missing_entry_point",
                  "exit": "exit_called"}.get(kind, "import_exception")
        return _result(case, reason, f"while importing the submission: {_error_text(error)}",
                       details={"stdout": loaded.get("stdout", ""), "stderr": loaded.get("stderr", "")})
    if run.ready is None:  # the submission is imported only after "ready": this is the judge's fault
        hint = (f"; JAX may need more than memory_mb = {limits['memory_mb']} MiB here"
                if run.signal in (signal.SIGABRT, signal.SIGSEGV, signal.SIGKILL) else "")
        return _result(case, "worker_start", f"the worker could not start (status {run.returncode}"
                                             f"{hint}): {run.stderr.strip()[-500:] or 'no output'}")
    if run.signal == signal.SIGXCPU or (run.signal == signal.SIGKILL and run.cpu_s is not None
                                        and run.cpu_s >= float(limits["cpu_s"])):
        return _result(case, "cpu_time_limit", f"CPU time limit exceeded: {limits['cpu_s']} s for "
                                               f"the whole run (the worker was killed)")
    if run.signal is not None:
        return _result(case, "killed_by_signal", f"the process was killed by signal {run.signal}")
    return _result(case, "exited_early", f"the process exited (status {run.returncode}) before "
                                         f"reporting this case")


def judge_case(problem: Problem, case, run: WorkerRun, factor: float | None = None) -> CaseResult:
    """One case's verdict; ``factor`` is what the case's backward rules were scaled by."""
    msg = run.cases.get(case.index)
    if msg is None:
        return _missing_case(case, run)
    time_s = run.case_times.get(case.index)
    details = {"stdout": str(msg.get("stdout", "")), "stderr": str(msg.get("stderr", ""))}
    error = msg.get("error")
    if error:
        if not isinstance(error, dict):
            error = {"kind": "exception", "type": "error", "message": "(malformed error report)"}
        line = error.get("line") if isinstance(error.get("line"), int) else None
        reason = {"concretization": "traced_value_concretized", "exit": "exit_called"}.get(
            error.get("kind"), "exception")
        text = _error_text(error)
        if reason == "traced_value_concretized":
            text = ("a traced value was turned into a Python value or NumPy array"
                    + (f" at line {line}" if line else "")
                    + (f": {str(error['source']).strip()}" if error.get("source") else "")
                    + f" ({error.get('type')})")
        return _result(case, reason, text, time_s, details, line=line)
    if time_s is not None and time_s > problem.limits["time_per_case_s"]:
        return _result(case, "time_limit", f"took {time_s:.2f} s, limit {problem.limits['time_per_case_s']} s",
                       time_s, details)
    try:
        output = protocol.decode_value(msg.get("output"))
    except protocol.ProtocolError as exc:
        return _result(case, "worker_protocol", f"malformed output from the worker: {exc}", time_s)
    breach = rules.check_rules(problem.rules, msg, output, factor)
    if breach:
        return _result(case, breach.reason, breach.message, time_s, details)
    tolerances = {f.name: f.tolerance for f in problem.fields}
    expected = {f.name: case.expected[f.name] for f in problem.fields}
    mismatch = checks.check_output(output, expected, problem.output_kind, tolerances)
    if mismatch:
        details = {**details, "diff": _diff(case, output, mismatch)}
        return _result(case, mismatch.reason, mismatch.message, time_s, details, field=mismatch.field)
    for probe in problem.probes:
        failed = _check_probe(probe, case, msg.get("probes"))
        if failed:
            reason, message, got, mismatch = failed
            if mismatch:
                details = {**details, "diff": _diff(case, got, mismatch)}
            return _result(case, reason, message, time_s, details)
    return _result(case, "ok", "passed", time_s, details)


def _check_probe(probe, case, reported) -> tuple | None:
    """(reason, message, got, mismatch) when a derivative probe fails, else None."""
    label = probe.name.upper()
    reported = reported if isinstance(reported, dict) else {}
    errors = reported.get("errors") if isinstance(reported.get("errors"), dict) else {}
    if probe.name in errors:
        error = errors[probe.name] if isinstance(errors[probe.name], dict) else {}
        return ("probe_failed", f"the {label} probe (jax.{probe.name} with respect to "
                f"{probe.wrt}) raised {_error_text(error)}", None, None)
    try:
        got = protocol.decode_value(reported.get(probe.name))
    except protocol.ProtocolError as exc:
        return ("probe_failed", f"the {label} probe returned malformed data: {exc}", None, None)
    if not isinstance(got, np.ndarray):
        return (f"wrong_{probe.name}", f"{label}: expected an array, got {got!r}", None, None)
    mismatch = checks.check_field(got, case.expected[probe.name], probe.name, probe.tolerance)
    if mismatch:
        detail = mismatch.message.split(": ", 1)[-1]
        return (f"wrong_{probe.name}", f"{label} probe (jax.{probe.name} with respect to {probe.wrt}): "
                f"{detail}", {probe.name: got}, mismatch)
    return None


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.astype(np.float64).tolist() if value.dtype.kind == "V" else value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, float)):
        return value
    return repr(value)


def _diff(case, output, mismatch: checks.Mismatch) -> dict:
    """What an example's report shows: inputs, expected, got and the differing positions."""
    return {
        "inputs": {k: _plain(v) for k, v in case.inputs.items()},
        "expected": {k: _plain(v) for k, v in case.expected.items()},
        "got": _plain(output),
        "field": mismatch.field,
        "positions": [{"index": list(i), "got": g, "expected": e} for i, g, e in mismatch.positions],
    }


def reference_outputs(problem: Problem, cases=None, *, compiled: bool = False,
                      sandbox: str | None = None, fill_cache: bool = False) -> dict[int, dict]:
    """Run the problem's reference solution on ``cases`` (default: all) in a worker and return
    each case's output fields (and probe results) as arrays. With ``compiled``, the worker
    evaluates each case under ``jax.jit`` instead of op by op, which lets XLA rewrite the
    arithmetic (division by a constant becomes multiplication by its reciprocal, for one).
    With ``fill_cache`` the run writes the judge's compilation cache (see ``judge.cache``).
    Raise JudgeError naming the reference if it fails."""
    cases = problem.cases if cases is None else cases
    ref = problem.reference
    if not ref.is_file():
        raise JudgeError(f"{ref}: reference solution not found (problem {problem.id})")
    request = build_request(problem, ref, cases)
    request["compiled"] = compiled
    run = run_worker(request, startup_timeout=problem.limits["startup_s"],
                     case_timeout=problem.limits["time_per_case_s"], sandbox=sandbox,
                     limits=problem.limits, cache_dir=cache.available(), cache_writable=fill_cache)
    outputs = {}
    for case in cases:
        msg = run.cases.get(case.index)
        if msg is None or msg.get("error"):
            failed = judge_case(problem, case, run)
            raise JudgeError(f"{ref}: the reference failed on {case.visibility} case {case.index} "
                             f"({case.name}): {failed.verdict.value} {failed.message}"
                             if msg is None else
                             f"{ref}: the reference failed on {case.visibility} case {case.index} "
                             f"({case.name}): {_error_text(msg['error'])}")
        output = protocol.decode_value(msg["output"])
        outputs[case.index] = dict(output) if problem.output_kind == "dict" else {"value": output}
        probes = msg.get("probes") or {}
        for probe in problem.probes:
            if probe.name in (probes.get("errors") or {}):
                raise JudgeError(f"{ref}: the reference's {probe.name.upper()} probe failed on "
                                 f"{case.visibility} case {case.index} ({case.name}): "
                                 f"{_error_text(probes['errors'][probe.name])}")
            outputs[case.index][probe.name] = protocol.decode_value(probes.get(probe.name))
    return outputs
