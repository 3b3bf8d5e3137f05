"""Does the loop that ``no_unrolling`` keyed on a static int parameter K reads compute the output?
Its form cannot say (a decoy loop of K trips whose result adds exactly zero, beside squarings
by K's bits or steps written out, has every form the rule asks for); its values can. On every
case (``PER_KEY``), until one moved, the worker evaluates the program the case ran again with
that loop stopped one trip early (``judge.worker.last_trip``), and the judge compares the
result with the case's own output at the problem's tolerance (``judge.grade.trips``). The honest
loop's last trip changes the output wherever the iteration has not converged; a problem's cases
hold such a case (where none does, its reference is refused, which ``judge check`` reports). So
the output must move on at least one measured case (``breach``). And every trip must compute,
not the last alone: on the first case of the largest K where the last trip moved the output, a
few trips before it are left out instead (``judge.worker.trip_skip``), and each must move the
output beyond half the tolerance; a case where one does not refuses the program (a loop of K
trips that steps at its last trips only, under a ``cond``, or squares at a few of them, the
other steps computed beside it).

Which loop (the worker chooses it, ``judge.worker.last_trip.chosen``): the one
``loop_trips.computing`` reads (of the loops whose count is a number, the one whose trip runs
the most equations), or the loop holding it where that loop's count is a number too (a fixed
loop of two steps in each of K // 2 trips: the trips of K // 2 are stopped early); where the
primal output does not need it (autodiff's backward loop, heavier than the forward one), the
loop of the same count that it needs. A loop over a symbolic dim is never stopped early; a case
where the loop runs no trip is not measured. A while loop that stopped before its count at a
case where its last trip changes the output counts as not computing it (``counts``). Reads the
judge's typed summary and the measurement's verdicts only.
"""

from __future__ import annotations

from judge.rules import loop_trips
from judge.rules.base import Breach, at_line, number

#: cases of one program (one key) the loop is stopped early on; None: every case
PER_KEY = None


def rule_of(problem) -> dict | None:
    """The ``no_unrolling`` rule keyed on a static int parameter, where the problem has one."""
    return next((r for r in problem.rules if r["id"] == "no_unrolling" and "parameter" in r), None)


def _count(loop):
    count = loop_trips.trip_count(loop.length)
    return count if isinstance(count, int) else None


def counts(changed: bool, trips: int | None, loop) -> bool | str:
    """Does a measurement count as the loop computing the output: its last trip ``changed`` it,
    and the loop ran the whole count its summary reads (``trips``, where the worker could tell).
    A while that stops before its bound while its last trip still changes the output stops
    where something other than the values' convergence says (bits shifted out of K - 1):
    ``"early"``, which does not count."""
    count = _count(loop)
    if changed and trips is not None and count is not None and trips < count:
        return "early"
    return changed


def runs_trips_before_last(loop, trips: int | None) -> bool:
    """Does the loop run a trip before its last at the case (its count, or the trips the worker
    saw it run, two or more)? Then each trip before the last is left out too, and must move the
    output as well."""
    count = trips if trips is not None else _count(loop)
    return count is not None and count >= 2


def breach(rule: dict, measured: int, moved: int, early: int = 0, line: int | None = None,
           last: int = 0) -> Breach | None:
    """Refused where ``measured`` cases ran the program with the loop stopped one trip early and
    on none of them (``moved``) the output changed beyond the tolerance, ``early`` of them only
    where the loop had stopped before its count; and where on ``last`` of them it changed with
    its last trip left out but not with every trip before it measured left out instead (one is
    enough); ``line``: the line of the submission that wrote that loop, where known."""
    if not measured or (moved and not last):
        return None
    K = rule["parameter"]
    if last:
        return Breach("unrolled_loop",
                      f"not every trip of the loop of {K} trips{at_line(line)} computes the output: on "
                      f"{number(last)} of the cases measured its last trip left out changes the "
                      f"output, but some trip before it left out instead does not (within half the "
                      f"problem's tolerance); the {K} steps must be that loop's trips, each one "
                      f"computing the next from the last, not steps computed beside it")
    stopped = (f"; on {number(early)} of them it changes only where the loop stopped before its "
               f"count of trips, which no convergence of the values explains" if early else "")
    return Breach("unrolled_loop",
                  f"the loop of {K} trips{at_line(line)} does not "
                  f"compute the output: with one trip fewer it is "
                  f"the same on every case (measured on {number(measured)} cases, within the "
                  f"problem's tolerance){stopped}; the {K} steps must be that loop's trips, each "
                  f"one computing the next from the last (lax.fori_loop(0, {K}, ...), lax.scan "
                  f"with length {K}, or a while loop counting to {K})")
