"""Verdicts, reason codes and the frozen results the reporters consume.

The verdict set is closed. Reason codes are stable strings that scripts may rely on; the message
beside them is for people and may change.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 example``, ``2 examples``: every count a person reads goes through this."""
    return f"{n} {word if n == 1 else many or word + 's'}"


class Verdict(str, enum.Enum):
    AC = "AC"    # accepted
    WA = "WA"    # wrong answer: output type, keys, shape, dtype or values
    RJ = "RJ"    # rejected: a rule of the problem was broken
    RTE = "RTE"  # run-time error: exception, crash, early exit
    CE = "CE"    # compile error: does not parse, or has no entry point
    TLE = "TLE"  # time limit exceeded
    MLE = "MLE"  # memory limit exceeded
    OLE = "OLE"  # output limit exceeded
    IE = "IE"    # internal error: the judge's own fault

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Verdict.AC: "Accepted", Verdict.WA: "Wrong answer", Verdict.RJ: "Rejected",
    Verdict.RTE: "Run-time error", Verdict.CE: "Compile error",
    Verdict.TLE: "Time limit exceeded", Verdict.MLE: "Memory limit exceeded",
    Verdict.OLE: "Output limit exceeded", Verdict.IE: "Internal error",
}

#: Most severe first; used when several verdicts must be summarised into one.
PRECEDENCE = (Verdict.IE, Verdict.CE, Verdict.RTE, Verdict.MLE, Verdict.OLE, Verdict.TLE,
              Verdict.RJ, Verdict.WA, Verdict.AC)

#: Every reason code the judge emits, with the verdict it belongs to.
REASONS = {
    "ok": Verdict.AC,
    # WA
    "wrong_type": Verdict.WA, "wrong_keys": Verdict.WA, "wrong_shape": Verdict.WA,
    "wrong_dtype": Verdict.WA, "wrong_value": Verdict.WA,
    "wrong_vjp": Verdict.WA, "wrong_jvp": Verdict.WA, "probe_failed": Verdict.WA,
    # RJ
    "no_custom_vjp": Verdict.RJ, "backward_not_run": Verdict.RJ,
    "grads_not_from_backward": Verdict.RJ, "traced_value_concretized": Verdict.RJ,
    "values_not_from_custom_vjp": Verdict.RJ,
    "callback_used": Verdict.RJ, "instrument_tampered": Verdict.RJ,
    "channel_tampered": Verdict.RJ,  # a line on the result channel was not the worker's
    "forbidden_construct": Verdict.RJ,  # the source gate refused the submission; it never ran
    # RJ from rules on the traced program (judge/rules/)
    "intermediate_too_large": Verdict.RJ, "unrolled_loop": Verdict.RJ,
    "missing_primitive": Verdict.RJ, "forbidden_primitive": Verdict.RJ,
    "probe_shape_failed": Verdict.RJ,  # the program could not be traced at a probe shape
    "opaque_computation": Verdict.RJ,  # the program calls code the rules cannot read
    "dim_read_as_number": Verdict.RJ,  # the program cannot be traced with its dims as symbols
    "function_primitive": Verdict.RJ,  # a primitive carrying a function the problem does not admit
    "wrong_precision": Verdict.RJ,  # an operation computes in a dtype the problem forbids
    "repeated_computation": Verdict.RJ,  # more of an operation than the problem allows
    # RTE
    "exception": Verdict.RTE, "import_exception": Verdict.RTE, "exit_called": Verdict.RTE,
    "exited_early": Verdict.RTE, "killed_by_signal": Verdict.RTE,
    "task_limit": Verdict.RTE,  # more threads and processes at once than limits.tasks
    # CE
    "syntax_error": Verdict.CE, "missing_entry_point": Verdict.CE,
    "no_submission": Verdict.CE,  # batch: a student folder without a usable .py file
    "bad_submission_file": Verdict.CE,  # batch: a link, FIFO, device, folder or oversized file
    # TLE
    "time_limit": Verdict.TLE, "cpu_time_limit": Verdict.TLE,
    "trace_time_limit": Verdict.TLE,  # the rules' trace never ended (a generous wall clock)
    # MLE
    "memory_limit": Verdict.MLE,
    # OLE
    "output_limit": Verdict.OLE,
    # IE
    "worker_protocol": Verdict.IE, "worker_start": Verdict.IE,
    "judge_error": Verdict.IE,  # batch: the judge could not grade this submission
    "worker_killed": Verdict.IE,  # a signal the judge did not send (the host's OOM killer, kill -9)
    "grader_lost": Verdict.IE,  # the service: every attempt's grader stopped answering
}


#: What a hidden case's report says, by reason code: fixed text, with nothing from its data or
#: from the worker (no line numbers, type names or parse errors), any of which a submission could
#: use to carry hidden inputs out. The full message goes to the judge-side log (``judge.grade.grading.LOG``).
HIDDEN_MESSAGES = {
    "ok": "passed",
    "wrong_type": "the output has the wrong type", "wrong_keys": "the output has the wrong keys",
    "wrong_shape": "an output has the wrong shape", "wrong_dtype": "an output has the wrong dtype",
    "wrong_value": "output values differ", "wrong_vjp": "the VJP differs",
    "wrong_jvp": "the JVP differs", "probe_failed": "a derivative probe raised an exception",
    "no_custom_vjp": "no jax.custom_vjp function was applied to the traced inputs",
    "backward_not_run": "the custom_vjp backward rule did not run",
    "grads_not_from_backward": "the gradients do not come from the custom_vjp backward rule",
    "values_not_from_custom_vjp": "the values are not computed by the custom_vjp function whose backward rule gives the gradients",
    "traced_value_concretized": "a traced value was turned into a Python value or NumPy array",
    "callback_used": "the traced computation calls back into Python",
    "intermediate_too_large": "an intermediate value is larger than the problem allows",
    "unrolled_loop": "the traced program grows with the size of the input",
    "missing_primitive": "the traced program lacks an operation the problem requires",
    "forbidden_primitive": "the traced program uses an operation the problem forbids",
    "probe_shape_failed": "the program could not be traced at a probe shape",
    "opaque_computation": "the traced program calls code the judge cannot read",
    "dim_read_as_number": "the program reads a dim as a number, so it cannot be traced with symbolic dims",
    "function_primitive": "the traced program uses a primitive carrying a function the problem does not admit",
    "wrong_precision": "an operation computing the output runs in a dtype the problem does not allow",
    "repeated_computation": "the output needs more of an operation than the problem allows (work done twice)",
    "trace_time_limit": "the program did not finish tracing",
    "instrument_tampered": "the submission replaced functions the judge's instruments rely on",
    "channel_tampered": "the result channel was tampered with",
    "exception": "the submission raised an exception",
    "import_exception": "the submission raised an exception while it was imported",
    "exit_called": "the submission called exit",
    "exited_early": "the process exited before reporting this case",
    "killed_by_signal": "the process was killed by a signal",
    "task_limit": "the submission started more threads and processes than allowed",
    "syntax_error": "the submission does not parse",
    "missing_entry_point": "the submission does not define the entry point",
    "time_limit": "time limit exceeded", "cpu_time_limit": "CPU time limit exceeded",
    "memory_limit": "memory limit exceeded", "output_limit": "output limit exceeded",
    "worker_protocol": "the worker broke the result protocol (the judge's fault)",
    "worker_start": "the worker could not start (the judge's fault)",
    "judge_error": "the judge could not grade this case",
    "worker_killed": "the worker was killed from outside the judge (the judge's fault)",
    "grader_lost": "the grader stopped answering (the judge's fault)",
}


def shown_time(case) -> float | None:
    """A case's time as a student-facing report shows it: an example's, never a hidden case's
    (a run time that depends on a hidden input would carry it out; the total time is shown)."""
    return case.time_s if case.visibility == "example" else None


@dataclass(frozen=True)
class CaseResult:
    index: int                # position in the problem's case list, examples first
    name: str
    visibility: str           # "example" or "hidden"
    verdict: Verdict
    reason: str
    message: str
    time_s: float | None = None
    details: dict = field(default_factory=dict)  # example diffs and captured output; never for hidden
    number: int | None = None  # position in the spec's examples: or hidden: list (None: ``index``)

    @property
    def label(self) -> str:
        """``example N (name)`` or ``hidden N``: how every report names the case."""
        n = self.index if self.number is None else self.number
        return f"example {n} ({self.name})" if self.visibility == "example" else f"hidden {n}"

    def __post_init__(self):
        if REASONS.get(self.reason) is not self.verdict:
            raise ValueError(f"reason {self.reason!r} does not belong to verdict {self.verdict}")


@dataclass(frozen=True)
class GradeResult:
    problem: str
    submission: str
    verdict: Verdict
    reason: str
    message: str
    time_s: float
    cases: tuple[CaseResult, ...]
    notes: tuple[str, ...] = ()   # things the user should know that are not failures
    source_gate: bool = True      # False: graded with the source gate off (judge.gate)
    hint: str = ""                # the hint of a known mistake this submission makes (judge.grade.hints)
    #: the reason code of each earlier attempt that ended IE and was graded again
    #: (judge.grade.regrade); empty when this is the first grade
    regraded: tuple[str, ...] = ()
    #: one fingerprint per example of its outputs (judge.grade.hints); not part of any report
    example_fingerprints: tuple = field(default=(), repr=False, compare=False)
    #: the points earned (``judge.grade.scoring.Score``), set by ``grading.grade``; None: not
    #: scored against a problem (``scoring.of`` then counts one point per case)
    score: object = field(default=None, compare=False)

    @property
    def accepted(self) -> bool:
        return self.verdict is Verdict.AC


def counts(records: list[dict]) -> list[tuple[str, int]]:
    """``(verdict, how many)`` over batch records (``{"verdict": "AC", ...}``): AC first, then
    by increasing severity (``PRECEDENCE`` reversed); any other verdict last, by name."""
    c = Counter(r["verdict"] for r in records)
    return [(v.value, c[v.value]) for v in reversed(PRECEDENCE) if c[v.value]] + \
        [(v, n) for v, n in sorted(c.items()) if v not in {p.value for p in PRECEDENCE}]


def overall(cases: tuple[CaseResult, ...]) -> tuple[Verdict, str, str]:
    """The first failing case decides (cases are ordered examples first)."""
    for case in cases:
        if case.verdict is not Verdict.AC:
            where = case.label
            return case.verdict, case.reason, f"{where}: {case.message}"
    return Verdict.AC, "ok", ("the only case passed" if len(cases) == 1
                              else f"all {len(cases)} cases passed")
