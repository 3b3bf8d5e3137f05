"""The programs the rules read (``judge.rules``), the worker run that traces those nothing
runs, and what was reported as evidence for the grading module.

The program the rules decide on is traced with the spec's ``symbolic_dims`` as symbols, once
per combination of the other dims and static values the cases use (``rules.symbolic_trace``),
by the cases' own worker, which computes every case of that combination by running that very
program (``judge.worker.case_runner``): its summary comes back with each case, and the rules'
decision on it is taken once (``symbolic``). Three more kinds are traced without running, sent
as cases with ``abstract`` shapes (``protocol``): the spec's probe shapes; the traces a rule
asks for once (``no_unrolling`` at explicit sizes); and the traces a rule asks for beside each
case (``no_unrolling`` at another extent of a dim that is not symbolic, or at other values of a
static parameter, drawn at random: those with symbolic dims are traced as a case's worker traces
the program its case runs, so that the rule compares that very program with them). They
are traced before any hidden case is sent, so a submission never answers the judge's traces
with what it saw in the cases (a loop padded to the extent of the case it just ran, say): sent
first to the cases' own worker (``fold``: one worker run per grade instead of two), or, where
that worker cannot trace them as the tracing worker would, or did not end as the cases' own
would (``folded_whole``), by a worker of their own, which never sees a case's values. Which
traces the rules want, and the tracing worker's index for each, is resolved once per grade
with the rest of the plan (``judge.grade.plan``, ``Wanted``); here they are sent, and read back
as evidence.
"""

from __future__ import annotations

import re
from dataclasses import replace

from judge import rules
from judge.grade import outcome
from judge.grade.plan import CasePlan, Plan, Wanted, extents_data, traced_arrays
from judge.problem.model import ProbeShape
from judge.worker import protocol


#: A trace's wall clock only stops one that never ends: at least this, or three times a
#: case's limit. It decides no rule: a trace stopped by it is TLE ``trace_time_limit``.
TRACE_TIMEOUT_S = 120


def timeout(problem) -> float:
    return max(TRACE_TIMEOUT_S, 3 * problem.limits["time_per_case_s"])


def request(problem, base: dict, wanted: list[Wanted]) -> dict | None:
    """The request of the worker that traces ``wanted``: the submission's request without its
    cases, instrument or probes, holding only shapes and static values."""
    if not wanted:
        return None
    # a tree travels whole among the values, traced at its own leaves' shapes, unless the
    # trace gives its leaves' extents (``trees``: with symbolic dims), nested as the tree
    traced = traced_arrays(problem)
    once: dict = {}
    for w in wanted:  # each index once
        once.setdefault(w.index, w)
    entries = [{"index": w.index, "args": protocol.encode_args(w.trace.values),
                "abstract": {**{name: {"shape": list(w.trace.shapes[name]), "dtype": w.trace.dtypes[name]}
                                for name in traced},
                             **{name: {"shape": extents_data(tree), "dtype": w.trace.dtypes[name]}
                                for name, tree in w.trace.trees.items()}},
                **({"symbols": {k: list(v) for k, v in w.trace.symbols.items()}} if w.trace.symbols else {})}
               for w in sorted(once.values(), key=lambda w: w.index)]
    # the derivatives the case's worker takes are traced into these programs too, and a
    # program traced with symbolic dims is traced as a case's worker traces its own (their
    # directions as inputs: ``structure``), so that the two can be compared; nothing is
    # evaluated there, so nothing is compiled to report (``report_ops``)
    return {**base, "grad_rule": None, "probes": None, "derivative": base.get("probes"),
            "structure": bool(base.get("structure")), "public_cases": 0, "report_ops": False,
            "cases": entries}


def fold(base: dict, tracing: dict | None) -> dict | None:
    """The cases' request with the traces of ``tracing`` (``request``) sent first, so that one
    worker traces them and then runs the cases; None where they go to a worker of their own:
    no traces, or a case's worker that traces its programs differently from the tracing
    worker (the custom_vjp rule's instrument, or no program summaries).

    The traces are the first of the entries sent before the examples are reported; the hidden
    cases follow only once every one of them is reported (``public_cases``), so the submission
    traces the rules' programs knowing what the tracing worker knows (the examples, public,
    besides), never a hidden case's values. It then runs the cases knowing where it was
    traced: that tells it nothing, since its programs there are reported already, and a case's
    own program is compared with them as it is."""
    if tracing is None or base.get("grad_rule") is not None or not base.get("structure"):
        return None
    entries = tracing["cases"]
    return {**base, "cases": [*entries, *base["cases"]],
            "public_cases": len(entries) + int(base.get("public_cases") or 0)}


def folded_whole(run, tracing: dict) -> bool:
    """Did the worker of a folded request (``fold``) report every trace, and end as the cases'
    own worker would have? That is: it ended cleanly, or was stopped by a case's own clock (a
    case timed from when it became due: the traces before it change nothing of it). Anything
    else (a limit on the whole run, which the traces share: its time, CPU, memory, output,
    tasks; a crash; a broken or tampered channel) and its runs are made again apart
    (``judge.grade.grading``), so that no verdict depends on the traces and the cases having
    shared a worker, nor on a trace's own clock (``timeout``)."""
    if run.loaded is not None and not run.loaded.ok and run.done:
        return True  # never imported: as the tracing worker would be, nothing traced
    if run.ready is None or any(c["index"] not in run.cases for c in tracing["cases"]):
        return False
    if (run.protocol_error or run.tampered or run.output_exceeded or run.lingered
            or run.tasks_exceeded_at is not None):
        return False
    if run.timed_out:  # a case's clock, after every trace was reported: the case's own TLE
        return run.timeout_phase == "case" and run.halt is None
    return run.done and run.halt is None and run.signal is None and run.returncode == 0


def evidence(w: Wanted, run, describe) -> rules.TraceEvidence | rules.Breach:
    """What the tracing worker ``run`` reported for ``w``: the trace as evidence for the rules,
    or the breach its failure is (a trace that never ended, a dim read as a number, ...)."""
    report = run.cases.get(w.index) if run is not None else None
    if report is None and run is not None and outcome.killed_from_outside(run):
        return rules.Breach("worker_killed", f"the worker tracing the rules' programs was killed "
                                             f"by signal {run.signal}, which the judge did not "
                                             f"send: the judge's fault, not the submission's")
    if report is None:
        return rules.Breach("trace_time_limit", f"the rules could not be checked: the program "
                                                f"traced at {w.trace.name} "
                                                f"did not finish tracing (nothing of it runs)")
    if w.trace.symbols and report.error is not None and report.error.kind == "symbolic":
        return symbolic_failure(w.trace, report.error)
    if report.error is not None:
        return rules.Breach("probe_shape_failed", f"the rules could not be checked: tracing at "
                                                  f"{w.trace.name} failed: {describe(report.error)}")
    return rules.TraceEvidence(label=w.trace.name, shapes=w.trace.shapes, program=report.program,
                               report=report, abstract=True, symbols=w.trace.symbols,
                               values=w.trace.values)


def _first_line(text: str) -> str:
    line = (text or "").strip().replace("\\n", "\n").splitlines()[0] if (text or "").strip() else ""
    return line[:200] + (" [...]" if len(line) > 200 else "")


def symbolic_failure(trace: rules.AbstractTrace, error) -> rules.Breach:
    """Why the program could not be traced with symbolic dims (``error`` of kind "symbolic"),
    naming the dim and the line."""
    symbols = list(trace.symbols)
    where = (f" at line {error.line}" if error.line else "") + (f": `{error.source.strip()}`" if error.source else "")
    text = error.message or ""
    named = [d for d in symbols if re.search(rf"(?<![A-Za-z0-9_]){re.escape(d)}(?![A-Za-z0-9_])", text)]
    dims = named or symbols
    told = " or ".join(dims)
    length = ("; len(x) reads a symbolic extent as a number: write x.shape[0]"
              if re.search(r"(?<![A-Za-z0-9_.])len\s*\(", error.source or "") else "")
    return rules.Breach("dim_read_as_number",
                        f"your code reads the dim {told} as a number{where}{length}; the rules "
                        f"are decided on your program traced with {', '.join(symbols)} as a "
                        f"symbol (any extent in its range), and every case runs that program, so "
                        f"no Python loop, branch, int(), float(), len() or reshape may depend on "
                        f"{told}'s value: use jax.vmap, lax.scan or array operations (a mean "
                        f"divides by x.shape[0] or uses jnp.mean) ({error.type}: {_first_line(text)})")


def program_breach(planned: Plan, run, describe) -> rules.Breach | None:
    """The rules' verdict on the traces made once (probe shapes, a rule's own sizes: the plan's
    ``once``): a breach there is the program's, so it applies to every case that ran cleanly.
    ``run``: the tracing worker's; ``describe(error)`` words a worker error."""
    found = []
    for w in planned.once:
        got = evidence(w, run, describe)
        if isinstance(got, rules.Breach):
            return got
        found.append((w.origin, got))
    return rules.check_abstract(planned.problem, found) if found else None


def symbolic(problem, planned: CasePlan, report, decided: dict) -> rules.TraceEvidence | rules.Breach | None:
    """The program the case (``planned``: ``judge.grade.plan``) ran, traced with symbolic dims
    (its summary in the case's ``report``), as the rules' evidence; or the rules' breach on it;
    None where the case was not run that way or reported no program (an error, judged as
    such). ``decided`` (one dict per grade) keeps the rules' decision on each program, which
    every case of its key shares."""
    trace, key = planned.trace, planned.key
    if trace is None or report is None or report.program is None:
        return None
    known = decided.get(key)
    if known is None or known[0] != report.program:  # each program the worker reports is decided
        got = rules.TraceEvidence(label=trace.name, shapes=trace.shapes, program=report.program,
                                  report=report, abstract=True, symbols=trace.symbols,
                                  values=trace.values)
        known = decided[key] = (report.program, rules.check_symbolic(problem, got) or got)
    return known[1]


def related(planned: Plan, case, run, describe, made: dict | None = None) -> dict | rules.Breach:
    """The traces made beside ``case`` (the plan's ``beside``), by the index of the rule that
    asked for them; or the rules' breach on one. ``made`` (one dict per grade, where given):
    cases with the same traces beside them get the very same answer, made once."""
    beside = planned.beside(case)
    key = tuple((w.origin, w.index) for w in beside)
    if made is not None and key in made:
        return made[key]
    by_rule: dict = {}
    found = None
    for w in beside:
        got = evidence(w, run, describe)
        if isinstance(got, rules.Breach):
            found = got
            break
        by_rule.setdefault(w.origin, []).append(got)
    if found is None:
        found = {k: tuple(v) for k, v in by_rule.items()}
    if made is not None:
        made[key] = found
    return found


def with_beside(problem, symbolic: rules.TraceEvidence, related: dict,
                decided: dict | None = None) -> rules.Breach | None:
    """The rules' decision on the program ``symbolic`` (``symbolic``'s evidence, which the cases
    of its key share) with the traces ``related`` beside it. ``decided`` (one dict per grade,
    where given) keeps it for each such pair, so cases of one program with the same traces
    beside them (``related`` made once for them) are decided once: the rules read nothing
    else, and the evidence is the same objects."""
    if decided is None:
        return rules.check_case(problem, replace(symbolic, related_by_rule=related))
    key = (id(symbolic), id(related))
    known = decided.get(key)
    if known is None:  # the pair is kept too, so that neither id is reused within the grade
        known = decided[key] = (symbolic, related,
                                rules.check_case(problem, replace(symbolic, related_by_rule=related)))
    return known[2]


def wanted_data(wanted) -> list:
    """The traces a run was planned with, as JSON (``judge.grade.result_cache`` stores them)."""
    return [{"origin": w.origin, "index": w.index, "owner": w.owner,
             "trace": {"name": w.trace.name,
                       "shapes": {k: list(v) for k, v in w.trace.shapes.items()},
                       "values": protocol.encode_args(w.trace.values),
                       "dtypes": dict(w.trace.dtypes),
                       "symbols": {k: list(v) for k, v in w.trace.symbols.items()}}}
            for w in wanted]


def wanted_from(data: list) -> list:
    """``wanted_data``'s JSON read back."""
    found = []
    for item in data:
        t = item["trace"]
        trace = ProbeShape(name=str(t["name"]), shapes={k: tuple(v) for k, v in t["shapes"].items()},
                           values=protocol.decode_args(t["values"]), dtypes=dict(t["dtypes"]),
                           symbols={k: tuple(v) for k, v in t["symbols"].items()})
        owner = item["owner"]
        found.append(Wanted(origin=item["origin"], trace=trace, index=int(item["index"]),
                            owner=None if owner is None else int(owner)))
    return found


def same_wanted(a: list, b: list) -> bool:
    """Are the traces read back from JSON the very ones planned (a shape or value JSON cannot
    carry exactly makes them differ: such a plan is not stored)?"""
    try:
        return bool(list(a) == list(b))
    except (TypeError, ValueError):  # an array among the values (a tree's leaves): compared as
        pass                         # the worker gets them, bytes, dtype and shape
    try:
        return wanted_data(a) == wanted_data(b)
    except (TypeError, ValueError):
        return False
