"""How many times the loops of a traced program run, as ``no_unrolling`` keyed on a static int
parameter reads them (``Loop.length``, ``Loop.within``, ``Loop.guarded``): the loop that
computes the output, its trips counted with those of the loops holding it, the most any loop
runs, and whether they track the parameter across traces at several of its values. Reads the
judge's typed summary of each program only."""

from __future__ import annotations

from judge.rules.base import Breach, at_line, number
from judge.worker import protocol

#: how many of the K steps one trip of a loop may run, unless the rule says
STEPS_PER_TRIP = 8


def value_at(trace, K: str) -> int | None:
    """The value of the parameter a trace was made at, where it is an int."""
    value = trace.values.get(K)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: a loop's count that is not one over the parameter (a symbolic dim's text)
OVER_A_DIM = object()


def trip_count(length: str):
    """A loop's trip count as the rule reads it: a number; at most a number (``<=5``, a loop
    that may stop early, whose early exit the values judge) as that number; None where it is
    data (``?``); ``OVER_A_DIM`` for a loop over a symbolic dim."""
    text = length[2:] if length.startswith("<=") else length
    if text.isdigit():
        return int(text)
    return None if length == "?" else OVER_A_DIM


def computing(program):
    """The live loop that computes the output, as far as the rule reads it: of the loops not
    over a symbolic dim, the one whose trip runs the most equations (``Loop.work``), the one
    whose trip runs the most times among those (``trips``: a jitted body's loop, listed where it
    is called inside a loop and where it is called outside, is read where it runs the most),
    then the one with the most trips of its own; None where there is none."""
    loops = [lp for lp in program.loops if trip_count(lp.length) is not OVER_A_DIM]
    if not loops:
        return None

    def weight(lp):
        total, own = trips(program, lp), trip_count(lp.length)
        return lp.work, -1 if total is None else total, -1 if own is None else own
    return max(loops, key=weight)


def trip_work(program) -> int:
    """The equations one trip of the loops that run the steps costs: the work of the loop that
    computes the output (``computing``) and of every loop beside it (held by the same loop, or
    by none) with the same count, as the backward loop autodiff makes of it: a step written out
    beside them costs its forward and backward equations both. 0 where no loop computes it."""
    loop = computing(program)
    if loop is None:
        return 0
    return sum(lp.work for lp in program.loops
               if lp.length == loop.length and lp.within == loop.within)


def trips(program, loop=None, held: bool = True):
    """How many times the trip of ``loop`` (by default the loop that computes the output,
    ``computing``) runs: its count times the counts of the loops that hold it (a fixed loop of
    two steps in each of ``K // 2`` trips runs K times); 0 for none, None where a count is
    data. A loop over a symbolic dim that holds it counts once. With ``held`` false, as far as
    it surely runs: the loops that hold it through a ``cond`` (``Loop.guarded``: it may run at
    a few of their trips only), or that hold a loop which may stop early (a count ``<=n``: it
    may run its n trips at a few of their trips, none at the others), are not counted."""
    loop = computing(program) if loop is None else loop
    if loop is None:
        return 0
    total, seen = 1, set()
    while loop is not None and id(loop) not in seen:
        seen.add(id(loop))
        count = trip_count(loop.length)
        if count is None:
            return None
        total *= 1 if count is OVER_A_DIM else count
        within = loop.within
        if not held and (getattr(loop, "guarded", False) or loop.length.startswith("<=")):
            break  # it may run at a few of its holder's trips only, or stop at once at the others
        loop = program.loops[within] if within is not None and within < len(program.loops) else None
    return total


def most_trips(program):
    """The most times the trip of any loop not over a symbolic dim runs (``trips``: its count
    times those of the loops holding it); 0 for none, None where a count is data."""
    counts = [trips(program, lp) for lp in program.loops if trip_count(lp.length) is not OVER_A_DIM]
    return None if None in counts else max(counts, default=0)


def named(loop) -> str:
    """`` (the while at line 12)``: which loop of the submission a message speaks of, where the
    summary knows the line that wrote it; empty otherwise."""
    where = at_line(loop)
    return f" (the {loop.primitive}{where})" if loop is not None and where else ""


def _data_loop(program):
    """The loop of ``program`` a message about a count that is data points to: the first whose
    own count is data, else the first whose trips (``trips``) are."""
    return next((lp for lp in program.loops if trip_count(lp.length) is None),
                next((lp for lp in program.loops if trips(program, lp) is None), None))


def _most(program):
    """The loop of ``program`` whose trip runs the most times (``most_trips``)."""
    loops = [lp for lp in program.loops if trip_count(lp.length) is not OVER_A_DIM]
    return max(loops, key=lambda lp: trips(program, lp) or 0, default=None)


def trips_breach(rule: dict, traces: list) -> Breach | None:
    """Does the trip count of the loop that computes the output (``trips``) track the
    parameter across ``traces``: from each value K1 to each larger K2, up by at least
    ``(K2 - K1) / steps_per_trip - 1`` (counting only the trips it surely runs: not those of a
    loop that holds it through a ``cond`` or where it may stop early; or those of one loop of
    the most work read at the same place in every program, ``_alike``), at most K trips and one
    trip's padding (``steps_per_trip`` steps masked past K) at every K (2K trips and the padding
    for a loop no other loop holds, or one held by loops of K - 1 trips or more: half a step
    to a trip, ``_held``, ``_halves``), and at most
    ``steps_per_trip`` trips for each step at every K for every loop (``most_trips``)? A count that is data is refused: nothing shows
    it tracks K; so is a program with more loops than its summary lists."""
    K = rule["parameter"]
    per = rule.get("steps_per_trip", STEPS_PER_TRIP)
    valued = sorted((t for t in traces if value_at(t, K) is not None), key=lambda t: value_at(t, K))
    seen = [(value_at(t, K), trips(t.program)) for t in valued]
    if len(seen) < 2:
        return None
    cure = (f"run the {K} steps as the loop's trips (lax.fori_loop(0, {K}, ...), lax.scan with "
            f"length {K}, or a while loop counting to {K})")
    if any(getattr(t.program, "loops_omitted", False) for t in valued):
        return Breach("unrolled_loop",
                      f"the program has more live loops than the judge reads ({protocol.MAX_LOOPS}): "
                      f"nothing shows that the loop computing the output runs a number of times "
                      f"that tracks {K}; {cure}")
    last = valued[-1].program  # where the message points: the program at the largest value
    data = next((t.program for t in valued if trips(t.program) is None), last)
    if breach := _data(K, seen, f"the loop that does the most work per trip{named(computing(data))}",
                       "the rule cannot read it", cure):
        return breach
    which = f"the loop that does the most work per trip{named(computing(last))}"
    told = ", ".join(f"{number(n)}{' times' if j == 0 else ''} at {K} = {k}" for j, (k, n) in enumerate(seen))
    least = [(value_at(t, K), trips(t.program, held=False)) for t in valued]
    if _lagging(per, least) and not any(
            _tracks(per, [(value_at(t, K), trips(t.program, t.program.loops[i], held=False)) for t in valued])
            for i in _alike(valued)):
        surely = "" if least == seen else (
            " (" + ", ".join(f"{number(n)} at {K} = {k}" for k, n in least) + " surely: the "
            "rest in a branch of a cond, or in a loop that may stop early, which may run at "
            "a few of its holder's trips only)")
        return Breach("unrolled_loop",
                      f"the loops do not run a number of times that tracks {K}: "
                      f"{which} runs {told}{surely}; with at "
                      f"most {per} of the {K} steps to a trip, it must run more times as "
                      f"{K} grows; {cure}")
    if any(n > per * (k + 1) for k, n in seen):
        return Breach("unrolled_loop",
                      f"the loops do not run a number of times that tracks {K}: {which} runs "
                      f"{told}, its count times the counts of the loops "
                      f"that hold it; that is more than {per} trips for each of the {K} steps, as "
                      f"when a loop of {K} trips holds a fixed loop that runs the steps; {cure}")
    alone = [not _held(t.program) or _halves(t.program, k) for t, (k, _) in zip(valued, seen)]
    if any(n > (2 * k if flat else k) + per for (k, n), flat in zip(seen, alone)):
        return Breach("unrolled_loop",
                      f"the loops do not run a number of times that tracks {K}: {which} runs "
                      f"{told}, its count times the counts of the loops "
                      f"that hold it; that is more than the {K} steps and one trip of at most {per} "
                      f"steps masked past {K}, as when each of {K} // {per} + 1 trips runs a fixed "
                      f"loop of more steps than a trip may hold; {cure}")
    most = [(value_at(t, K), most_trips(t.program)) for t in valued]
    data = next((t.program for t in valued if most_trips(t.program) is None), last)
    if breach := _data(K, most, f"a loop{named(_data_loop(data))}", "whatever loop computes the output, nothing shows that "
                       "this one does not repeat the steps a fixed number of times", cure):
        return breach
    if any(n > per * (k + 1) for k, n in most):
        worst = max((t.program for t, (k, n) in zip(valued, most) if n > per * (k + 1)), key=most_trips)
        told = ", ".join(f"{number(n)}{' times' if j == 0 else ''} at {K} = {k}" for j, (k, n) in enumerate(most))
        return Breach("unrolled_loop",
                      f"the loops do not run a number of times that tracks {K}: a loop"
                      f"{named(_most(worst))} runs more than {per} trips for each of the {K} steps, {told}, its "
                      f"count times the counts of the loops that hold it (a fixed loop held by a "
                      f"loop of {K} trips, or called again inside one); whatever loop computes "
                      f"the output, no loop may repeat the steps that often; {cure}")
    return None


def _lagging(per: int, runs: list) -> list:
    """The pairs of ``runs`` (``(K, trips)``, by K) where trips grow from K1 to a larger K2 by
    less than ``(K2 - K1) / per - 1``: ``(K1, n1, K2, n2)``."""
    return [(k1, n1, k2, n2) for i, (k1, n1) in enumerate(runs) for k2, n2 in runs[i + 1:]
            if k2 > k1 and (n2 - n1) * per < k2 - k1 - per]


def _tracks(per: int, runs: list) -> bool:
    """Whether the trips of ``runs`` are known at every K and grow enough (``_lagging``)."""
    return None not in (n for _, n in runs) and not _lagging(per, runs)


def _alike(traces: list) -> list[int]:
    """Where every program lists the same loops (as many, each held by the same loop, with the
    same work and primitive, none over a symbolic dim), the places in that list of the loops
    doing the most work per trip in every program: the same loop read at each value of the
    parameter. Where two loops of equal work run the steps, one of several steps to a trip and
    one of the rest (``K // 8`` trips, then ``K % 8``), the loop computing the output at a value
    is the one that runs more trips there, and which that is changes with the value, so its trips
    alone may not grow from one value to the next: those of one loop across them do. None where
    the programs differ."""
    shapes = {tuple((lp.primitive, lp.work, lp.within, getattr(lp, "guarded", False))
                    for lp in t.program.loops) for t in traces}
    if len(shapes) != 1 or any(trip_count(lp.length) is OVER_A_DIM
                               for t in traces for lp in t.program.loops):
        return []
    (shape,) = shapes
    most = max((work for _, work, _, _ in shape), default=None)
    return [i for i, (_, work, _, _) in enumerate(shape) if work == most]


def _held(program) -> bool:
    """Whether the loop that computes the output (``computing``) is held by another loop. One
    that is not may run up to 2K trips and a trip's padding: a half step to a trip (v from u at
    even trips, u from v at odd ones) is the iteration too, and a single loop of 2K trips holds
    no fixed chunk of steps, which is what the cap of K trips refuses in nested loops."""
    loop = computing(program)
    return loop is not None and loop.within is not None


def _halves(program, K: int) -> bool:
    """Whether the loop that computes the output (``computing``) is held by loops that surely
    run at least K - 1 trips (``trips`` of its holder, as far as it surely runs; K - 1 after a
    first step written out): then each of its runs is within one of the steps, and a fixed loop
    of two trips held there is a step's two half steps (v from u, then u from v), as in one loop
    of 2K trips. A fixed loop of steps in each of ``K // 8 + 1`` trips is held by fewer."""
    loop = computing(program)
    if loop is None or loop.within is None or loop.within >= len(program.loops):
        return False
    holder = trips(program, program.loops[loop.within], held=False)
    return holder is not None and holder >= K - 1


def _data(K: str, runs: list, which: str, then: str, cure: str) -> Breach | None:
    """The breach where ``which`` loop runs a number of times that is data at some K of ``runs``
    (``(K, trips)`` pairs, trips None where it is data); None where every count is known."""
    if not any(n is None for _, n in runs):
        return None
    at = ", ".join(f"at {K} = {k}" for k, n in runs if n is None)
    return Breach("unrolled_loop",
                  f"the loops do not run a number of times that tracks {K}: {which} runs a number "
                  f"of times that is data {at} (its bound or start is computed from an array, or "
                  f"its test is not a counter compared with a bound); {then}; {cure}")
