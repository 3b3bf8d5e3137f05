"""The loop a static int parameter K keys, stopped one trip early (``judge.rules.last_trip``): which
cases the worker measures it on (``mark``), and the rule's decision across them (``breach``),
each measurement compared with the case's own output at the problem's tolerance. Decides no
verdict itself: grading applies the breach to every case that otherwise passes, as it applies
what the rules found at the probe shapes."""

from __future__ import annotations

import numpy as np

from judge.grade import compare
from judge.grade.plan import Plan
from judge.rules import last_trip
from judge.worker.last_trip import MAX_ELEMENTS

#: The share of the tolerance a trip before the last, left out, must move the output beyond,
#: where the last trip left out moved it beyond the whole: the same K - 1 steps computed another
#: way round (a batch of them) may differ in their last bits, a trip that does nothing moves it
#: not at all
EARLIER_SHARE = 0.5


def mark(request: dict, problem, planned: Plan) -> dict:
    """``request`` with ``shorten`` on the first ``last_trip.PER_KEY`` cases of each program
    (each key, or each case's static values where the program is traced at its shapes; every
    case where it is None), as ``"earlier"`` on those of the largest K (``_largest``), where the
    problem keys a loop rule on a static int parameter and its programs are summarized; and the
    largest output tolerance, past which the worker stops measuring."""
    if last_trip.rule_of(problem) is None or not request.get("structure"):
        return request
    statics = [p.name for p in problem.parameters if not p.traced]
    counts: dict = {}
    found = []
    top = _largest(request, problem, planned)
    for entry in request["cases"]:
        known = planned.cases.get(entry["index"])
        if known is None or entry.get("abstract") is not None:
            found.append(entry)
            continue
        key = known.key or repr([(n, repr(known.case.inputs[n])) for n in statics])
        counts[key] = counts.get(key, 0) + 1
        more = last_trip.PER_KEY is None or counts[key] <= last_trip.PER_KEY
        how = "earlier" if top is not None and _count_of(problem, known) == top else True
        found.append({**entry, "shorten": how} if more else entry)
    # the worker stops measuring once a case moved beyond the largest of the outputs'
    # tolerances (then it moved beyond its own): one such case is all the rule asks for, and
    # one of the largest K, whose trips before the last are left out too
    tolerances = [s.tolerance for p in planned.cases.values() for s in p.outputs]
    largest = {k: max((float(t.get(k, 0.0)) for t in tolerances), default=0.0) for k in ("rtol", "atol")}
    return {**request, "cases": found, "shorten_tolerance": largest}


def _count_of(problem, known):
    """The case's value of the rule's static int parameter K, where it is an int."""
    value = known.case.inputs.get(last_trip.rule_of(problem)["parameter"])
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _largest(request: dict, problem, planned: Plan):
    """The largest K of the request's cases: its cases are the ones a few trips before the last
    are left out on too (``earlier``), where the loop runs the most trips and an idle share of
    them shows most surely; the loop is traced and measured again for that K alone."""
    counts = [_count_of(problem, known) for known in (planned.cases.get(e["index"]) for e in request["cases"])
              if known is not None]
    counts = [c for c in counts if c is not None]
    return max(counts) if counts else None


def moved(problem, planned, report) -> bool | str | None:
    """Did the case's output change beyond the tolerance with the loop stopped one trip early,
    and, where the loop runs two trips or more, with each trip before its last left out
    instead (``Shortened.earlier``: a few of them) too? None where the case was not measured
    (not asked, it did not run cleanly, or the loop ran no trip); False where it was asked and
    the worker measured nothing; ``"early"`` where it changed but a while had stopped before its
    count (``last_trip.counts``); ``"last"`` where it changed, but not with one of the trips
    before the last measured left out instead."""
    if report is None or report.error is not None or report.skipped or report.output is None:
        return None
    if report.program is None:
        return None
    got = report.shortened
    if got is None and _elements(report.output) > MAX_ELEMENTS:
        return None  # an output the worker does not measure
    if got is None or got.loop >= len(report.program.loops):
        return False
    if got.trips == 0:
        return None  # a loop of no trip at this case: nothing to leave out
    changed = _changed(problem, planned, report.output, got.output)
    if changed is None:
        return None
    loop = report.program.loops[got.loop]
    found = last_trip.counts(changed, got.trips, loop)
    if found is True and got.earlier_sent and last_trip.runs_trips_before_last(loop, got.trips):
        # every trip must compute, not the last alone: another trip left out moves it too
        earlier = bool(got.earlier) and all(_changed(problem, planned, report.output, short, EARLIER_SHARE) is True
                                            for _, short in got.earlier)
        found = True if earlier else "last"
    return found


def _changed(problem, planned, own, short, share: float = 1.0) -> bool | None:
    """Does ``short`` differ from the case's output ``own`` beyond ``share`` of the tolerance?
    None where the output is not of the problem's form (the case's own verdict says so)."""
    slots = planned.outputs
    tolerances = {s.key: {k: float(v) * share if k in ("rtol", "atol") else v for k, v in s.tolerance.items()}
                  for s in slots}
    kind = problem.output_kind
    if planned.nested:
        (own, bad), (short, worse) = (compare.leaves_of(v, slots, "output" if kind == "tree" else None)
                                      for v in (own, short))
        if bad:
            return None
        if worse:
            return True
        kind = "dict"
    expected = {"value": own} if kind == "array" else own
    if not isinstance(expected, dict) or any(s.key not in expected for s in slots):
        return None  # an output of the wrong form: the case's own verdict says so
    expected = {s.key: expected[s.key] for s in slots}
    try:
        return bool(compare.check_form(short, expected, kind)
                    or compare.check_form_values(short, expected, kind, tolerances))
    except (TypeError, ValueError, KeyError, IndexError):
        return True  # not comparable with the output: not the same output


def _elements(value) -> int:
    """The elements of a decoded output's arrays."""
    if isinstance(value, dict):
        return sum(_elements(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_elements(v) for v in value)
    return int(np.size(value)) if isinstance(value, (np.ndarray, np.generic)) else 0


def breach(problem, cases, run, planned: Plan, request: dict):
    """The rule's breach across the cases the loop was stopped early on (those ``request`` sent
    with ``shorten``), or None. Where none was measured, the cases sent with it that were not
    evaluated (their program refused) count as measured and unmoved."""
    asked = {c["index"] for c in request["cases"] if c.get("shorten")}
    rule = last_trip.rule_of(problem)
    if rule is None or not asked:
        return None
    found = [moved(problem, planned.of(c), run.cases.get(c.index)) for c in cases if c.index in asked]
    measured = [m for m in found if m is not None]
    if not measured:
        # cases not evaluated because the rules refused their program (``judge.grade.skips``)
        # are not measured: where no other case was, they count as measured and unmoved, so
        # that a program refused on some cases never escapes the rule on the others by it
        skipped = sum(1 for c in cases if c.index in asked and getattr(run.cases.get(c.index), "skipped", False))
        return last_trip.breach(rule, skipped, 0)
    return last_trip.breach(rule, len(measured), sum(m is True for m in measured),
                            sum(m == "early" for m in measured), _line(cases, run, asked),
                            sum(m == "last" for m in measured))


def _line(cases, run, asked: set) -> int | None:
    """The line of the submission that wrote the loop stopped early, as the first case measured
    reports it (None where none says)."""
    for c in cases:
        report = run.cases.get(c.index) if c.index in asked else None
        got = getattr(report, "shortened", None)
        program = getattr(report, "program", None)
        if got is not None and program is not None and got.loop < len(program.loops):
            return program.loops[got.loop].line
    return None
