"""Rule ``no_unrolling``: the traced program does not grow with a dim.

When the dim is one of the spec's ``symbolic_dims`` (the default), the rules' program is traced
with it as a symbol: a Python loop or comprehension over it cannot be traced at all (RJ
``dim_read_as_number``, ``judge.grade.traces``), and this rule caps the equations at
``max_equations`` (a loop padded to a fixed count never grows, but it is as long as the loop)
and refuses a loop primitive padded to a fixed count over the dim: a fixed number of trips
each indexing the dim by the loop's counter (``judge.rules.fixed_loops``), or such a loop
written out in Python: three places of the dim or more picked at indices the program's text
fixes (``x[3]``, ``where(rows == 3, ...)``, a take of ``arange(16) + 16``). Each message names
the line of the submission that holds the loop, or that grows the most.
Otherwise, as before symbolic dims:

Traces the entry abstractly (nothing runs) at two or more extents of one dim of the parameters'
symbolic shapes, every other dim and static value taken from the first example, and compares
the number of equations, nested bodies included. A Python loop or comprehension over the
examples adds equations for every example; ``jax.vmap`` and batched operations do not. Then
"vmap, not a Python loop over examples" is a rule. (``lax.map`` and ``fori_loop`` do not grow
either: forbid ``scan`` and ``while`` with ``forbidden_primitives`` to refuse them too.)

Keyed on a static int ``parameter`` (a Python int K, the number of steps of an iteration)
instead of a dim: the program is traced at two or more values of K (``sizes``, by default 3, 7
and the top of the parameter's range), every shape and other static value from the first example, and each
case's program again at other values of K drawn at random in the range (two of them,
drawn once per grade and shared by every case, so that a grade traces each value once); the
counts must agree to within a step and a half (``_slack``: the odd step after a loop of two
steps to a trip, under a Python ``if K % 2``, passes), and at the rule's own values of K a loop primitive
(``scan`` or ``while``: ``lax.fori_loop``, ``lax.scan``, ``lax.while_loop``) must compute the
output, so that the K steps run in a loop rather than unrolled (``max_equations`` caps a Python
loop padded to the largest K).

The loop that computes the output must also run a number of times that tracks K: of the live
loops (a loop over a symbolic dim left out: it does not run over K), the one whose trip runs the
most equations (``judge.worker.loops.work``: those of its body that the carries the output needs
need, a loop nested in it counted as one equation, since it is weighed on its own: a loop of K
trips holding a fixed loop that runs the steps is not taken for the loop of the steps), the
longest of those where several tie; across the rule's values of K, and across a case's K and the
other, its trip count, times the counts of the loops that hold it (``Loop.within``), must grow by
at least ``(K2 - K1) / steps_per_trip - 1`` from K1 to K2, and stay at most K and one trip's
padding (``K + steps_per_trip``: ``K // 8 + 1`` trips of a fixed loop of 8 steps masked past K)
(``steps_per_trip`` defaults to 8: a body that runs up to 8 steps per trip,
``K // 2`` trips of two steps and a peeled one, ``K // 2`` trips holding a fixed loop of two
steps, ``K - 1`` trips after a first step written out, all pass; K trips each holding a fixed loop
of 64 that runs the steps do not, nor do ``K // 8 + 1`` trips each holding a fixed loop of 24
masked past K, however the 24 are split between fixed loops). Where a ``cond`` lies between a loop and the loop holding it
(``Loop.guarded``), the branch may run at a few of the holder's trips only: the growth counts
the trips it surely runs, its own count without its holders' (``K // 8 + 1`` trips running a
fixed loop of 24 steps at their first trips only do not grow), and so for a held loop that may
stop early (``(j < 24) & (i * 24 < K)``). A loop of a fixed count (7
squarings of a matrix standing for K steps), or of ``log2(K)`` trips, is refused
(``unrolled_loop``), and so is such a loop beside a light loop of K trips that computes next to
nothing (a number multiplied by one). Whichever loop computes the output, no live loop (its
count times those of the loops holding it, a body called at several places counted at each:
``judge.worker.program``) runs more than ``steps_per_trip`` times ``K + 1`` trips, or a number of
trips that is data: a loop of K trips padded to weigh the most cannot hold, or stand beside, a
fixed loop of 64 trips that runs the steps; and a program with more live loops than its summary
lists is refused. The count is read without running anything (``judge.worker.loops``): a scan's
length, and a while loop's where its condition compares a counter with a bound known before the
loop (a Python int, ``jnp.asarray(K)``, a dim) and its body steps the counter by a literal; a
condition of several tests joined by ``&`` counts as the least count read (``(i < K) & (moved >
tol)`` runs at most K times: an early exit is the values' business), unless a test no count is
read from reads a whole number or flag the body computes from nothing the loop's floats or
arrays move (a counter against a bound computed from W, bits shifted out of K - 1): that loop
stops where something decided before it runs says so, and its count is data. Where the count of a loop
is data (a bound computed from an array, a while that runs until a value converges with no
counter beside), nothing shows that it tracks K, and the program is refused. That loop must also
compute the output, which its form cannot show and its values do: stopped one trip early at
every case, it must change the output beyond the tolerance on one of them
(``judge.rules.last_trip``, decided by ``judge.grade.trips`` across the cases).
"""

from __future__ import annotations

import secrets

from judge.problem.model import bind_dims, dim_names, dim_ranges, shapes_for, tree_extents, tree_shapes
from judge.rules import fixed_loops, loop_trips, primitive_names
from judge.rules.base import AbstractTrace, Breach, TraceEvidence, number

ID = "no_unrolling"
EVIDENCE = ("program",)
#: ``dim_read_as_number`` is reported by the symbolic trace itself (``judge.grade.traces``): it
#: is what a Python loop over a symbolic dim gets
REASONS = ("unrolled_loop", "dim_read_as_number")
DEFAULT_SIZES = (3, 7)
#: how many of the K steps one trip of a loop may run, unless the rule says
STEPS_PER_TRIP = loop_trips.STEPS_PER_TRIP
#: what runs the steps of a rule keyed on a parameter
LOOPS = ("scan", "while")
REST_CHUNK = 4  # the most steps of a trip whose K % c rest may be written out (``_slack``)
#: how many other values of the parameter a grade draws at random for the cases' programs to be
#: compared with (each case with every one that is not its own)
OTHERS = 2


def describe(rule: dict) -> str:
    budget = (f", and has at most {rule['max_equations']} equations" if "max_equations" in rule
              else "")
    if "parameter" in rule:
        return (f"the traced program must not grow with {rule['parameter']}{budget}: its "
                f"{rule['parameter']} steps run in a loop primitive (lax.fori_loop, lax.scan or "
                f"lax.while_loop), not in a Python loop or comprehension, and that loop runs a "
                f"number of times that grows with {rule['parameter']} (at most "
                f"{rule.get('steps_per_trip', STEPS_PER_TRIP)} steps to a trip)")
    return (f"the traced program must not grow with {rule['dim']}{budget}: no Python loop, "
            f"comprehension or branch over it, and no loop of a fixed count that takes one index "
            f"of it a trip, written out or not (use jax.vmap or batched operations)")


def _range(p) -> tuple[int, int | None]:
    """The values a static int parameter may take, as far as its bounds say."""
    low = p.minimum if p.minimum is not None else (
        p.exclusive_minimum + 1 if p.exclusive_minimum is not None else 0)
    high = p.maximum if p.maximum is not None else (
        p.exclusive_maximum - 1 if p.exclusive_maximum is not None else None)
    return int(low), None if high is None else int(high)


def validate(rule: dict, problem) -> list:
    if ("dim" in rule) == ("parameter" in rule):
        return [("id", "give `dim` (a dim name) or `parameter` (a static int parameter), one of them")]
    if "parameter" in rule:
        p = next((p for p in problem.parameters if p.name == rule["parameter"]), None)
        if p is None or p.kind != "int" or p.traced:
            ints = sorted(q.name for q in problem.parameters if q.kind == "int" and not q.traced)
            return [("parameter", f"{rule['parameter']!r} is not a static int parameter (kind: int, "
                                  f"traced: false)" + (f"; static ints: {', '.join(ints)}" if ints else ""))]
        low, high = _range(p)
        if high is None or high - low < 1:
            return [("parameter", f"{p.name} needs a range of at least two values (minimum and "
                                  f"maximum) to be traced at two of them")]
        outside = [k for k in rule.get("sizes", ()) if not low <= k <= high]
        if outside:
            return [("sizes", f"{outside[0]} is outside {p.name}'s range {low} to {high}")]
        return []
    if "steps_per_trip" in rule:
        return [("steps_per_trip", "only a rule keyed on a `parameter` counts a loop's trips; "
                                   "remove it, or give `parameter`")]
    if rule["dim"] not in dim_names(problem.parameters):
        known = sorted(dim_names(problem.parameters))
        return [("dim", f"{rule['dim']!r} is not a dim name of the parameters' shapes"
                        + (f" (dims: {', '.join(known)})" if known else " (give them a `shape`)"))]
    return []


def _sizes(rule: dict, problem=None) -> tuple[int, ...]:
    if rule.get("sizes"):
        return tuple(rule["sizes"])
    if "parameter" in rule:
        low, high = _range(problem.parameter(rule["parameter"]))
        return tuple(sorted({min(max(k, low), high) for k in DEFAULT_SIZES + (high,)})) \
            if min(max(DEFAULT_SIZES[0], low), high) != min(max(DEFAULT_SIZES[1], low), high) \
            else (low, high)
    return DEFAULT_SIZES


def _parameter_traces(rule: dict, problem) -> list[AbstractTrace]:
    base = problem.examples[0].inputs
    params = problem.parameters
    shapes = {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"}
    values = {p.name: base[p.name] for p in params if not p.traced or p.kind == "tree"}
    dtypes = {p.name: str(base[p.name].dtype) for p in params if p.traced and p.kind == "array"}
    return [AbstractTrace(name=f"{rule['parameter']} = {k}", shapes=shapes,
                          values={**values, rule["parameter"]: k}, dtypes=dtypes)
            for k in _sizes(rule, problem)]


def traces(rule: dict, problem) -> list[AbstractTrace]:
    """The program at each of ``sizes``, other dims and static values from the first example
    (none while no example has loaded, as when ``judge fill`` computes the first outputs; none
    for a symbolic dim unless the spec gives ``sizes``)."""
    if problem.examples and "parameter" in rule:
        return _parameter_traces(rule, problem)
    if not problem.examples or "parameter" in rule or (
            rule["dim"] in problem.symbolic_dims and "sizes" not in rule):
        return []
    base = problem.examples[0].inputs
    params = problem.parameters
    dims = bind_dims(params, {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"})
    # a tree (traced) goes with the static values, as for a case (``rules.case_traces``): the
    # worker traces it at its leaves' shapes
    statics = {p.name: base[p.name] for p in params if not p.traced or p.kind == "tree"}
    found = []
    for size in _sizes(rule):
        shapes = shapes_for(params, {**dims, rule["dim"]: size},
                            {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"})
        found.append(AbstractTrace(name=f"{rule['dim']} = {size}",
                                   shapes=shapes,
                                   values=statics,
                                   dtypes={p.name: str(base[p.name].dtype) for p in params
                                           if p.traced and p.kind == "array"}))
    return found


def other_size(extent: int) -> int:
    """The extent a case's program is traced at again to see whether it grows: drawn at random
    above the case's own (so never 1), so that a submission cannot tell it in advance."""
    return extent + 1 + secrets.randbelow(extent + 8)


def others(rule: dict, problem, drawn: dict | None = None) -> tuple[int, ...]:
    """The values of the parameter every case's program is compared with: ``OTHERS`` distinct
    values drawn at random in its range (all of them in a range that small), drawn once into
    ``drawn`` (one dict per grade, kept by the caller) and read from it after."""
    if drawn is not None and "others" in drawn:
        return drawn["others"]
    low, high = _range(problem.parameter(rule["parameter"]))
    # never 1: one step is no loop, and ordinary jnp code makes a program with an equation
    # fewer there (``ys[-1]`` of a scan of length 1 is a squeeze without a slice)
    low = max(low, 2)
    found: set = set()
    while len(found) < min(OTHERS, high - low + 1):
        found.add(low + secrets.randbelow(high - low + 1))
    if drawn is not None:
        drawn["others"] = tuple(sorted(found))
    return tuple(sorted(found))


def case_traces(rule: dict, problem, shapes: dict, values: dict,
                drawn: dict | None = None, ran: bool = False) -> list[AbstractTrace]:
    """The case's shapes with the dim at another extent (keyed on a parameter: the programs
    at the values ``others`` drew, traced abstractly, and the case's own program where the
    case's worker does not report it): a program that loops over the dim
    only at some extents (say, every extent but the ones ``traces`` uses) is caught on the
    cases themselves. None for a case whose extent is 1: ordinary jnp code (a squeeze, a
    median) makes a program with an equation fewer on an axis of extent 1, so that case cannot
    be compared fairly. ``drawn``: what this grade drew at random so far (``others``); without
    it, drawn afresh. ``ran``: the program the case runs, traced with the symbolic dims, comes
    with its report (``judge.grade.traces.symbolic``), and ``check`` compares that one."""
    params = problem.parameters
    if "parameter" in rule:
        low, high = _range(problem.parameter(rule["parameter"]))
        own = int(values[rule["parameter"]])
        if high <= max(low, 1):
            return []
        # other values drawn at random once per grade: a submission cannot predict them, and
        # each is traced once whatever the number of cases. With symbolic dims they are traced
        # as the case's worker traces the program the case runs (its probes' directions as
        # inputs: ``judge.worker.case_runner.abstract``), so that only the parameter differs
        # between that program and these; without (or where the case's program is not
        # reported, ``ran``), the case's own is traced beside them, the same way
        drawn_others = [k for k in others(rule, problem, drawn) if k != own]
        symbols, traced_shapes, trees = {}, shapes, {}
        if problem.symbolic_dims:
            # with the case's symbolic dims as symbols: the one at the case's own value is the
            # program the rules already traced for the case, and is traced once; a tree's
            # leaves hold them too (``rules.symbolic_trace``), traced from their extents
            ranges = dim_ranges(params)
            symbols = {d: ranges[d] for d in problem.symbolic_dims}
            leaves = {p.name: tree_shapes(values[p.name]) for p in params if p.kind == "tree" and p.traced}
            named = {**bind_dims(params, shapes, leaves), **{d: d for d in symbols}}
            traced_shapes = shapes_for(params, named, shapes)
            trees = {p.name: tree_extents(p, leaves[p.name], named) for p in params if p.name in leaves}
            values = {name: v for name, v in values.items() if name not in trees}
        # a case of one step is compared through the others only (``others``: never 1)
        mine = () if (ran and symbols) or own == 1 else (own,)
        return [AbstractTrace(name=f"{rule['parameter']} = {n}", shapes=traced_shapes,
                              values={**values, rule["parameter"]: n}, symbols=symbols, trees=trees)
                for n in (*mine, *drawn_others)]
    dims = bind_dims(params, shapes)
    if dims.get(rule["dim"], 1) <= 1 or rule["dim"] in problem.symbolic_dims:
        return []
    size = other_size(dims[rule["dim"]])
    return [AbstractTrace(name=f"{rule['dim']} = {size}",
                          shapes=shapes_for(params, {**dims, rule["dim"]: size}, shapes),
                          values=values)]  # the registry gives it the case's dtypes


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    """On a case: the program at the case's extent of the dim and at another
    (``case_traces``) must have as many equations. On every trace: no more equations than
    ``max_equations``, when the spec gives one (a loop padded to a fixed count never grows,
    but it is as long as the loop)."""
    if trace.program is None:
        return None
    budget = rule.get("max_equations")
    key = rule.get("dim") or rule["parameter"]
    cure = ("write the steps as the body of lax.fori_loop, lax.scan or lax.while_loop"
            if "parameter" in rule else "batch it with jax.vmap or array operations")
    if budget is not None and trace.program.equations > budget:
        return Breach("unrolled_loop",
                      f"{trace.label}: the traced program has {number(trace.program.equations)} "
                      f"equations, more than the {number(budget)} "
                      f"{'a loop' if 'parameter' in rule else 'a batched solution'} "
                      f"needs{_busiest(trace.program)}; a Python loop over {key} makes that many: "
                      f"{cure}")
    if "dim" in rule and (padded := fixed_loops.padded_breach(rule, trace)) is not None:
        return padded
    # a program traced without running is compared with nothing, but a case's program traced
    # with symbolic dims is: with the traces made beside it
    if trace.abstract and not trace.related:
        return None
    if "parameter" in rule:
        counted = _own(rule, trace) + [t for t in trace.related if t.program is not None]
        if _spread(counted) > _slack(rule, counted):
            first, *rest = counted
            told = " and ".join([f"{number(first.program.equations)} equations at {_named(first, key)}"]
                                + [f"{number(t.program.equations)} at {_named(t, key)}" for t in rest])
            return Breach("unrolled_loop",
                          f"{trace.label}: the traced program grows with {key}, {told}"
                          f"{_grows([(_named(t, key), t.program) for t in counted])}: it "
                          f"repeats work for each of the {key} steps, as a Python loop or "
                          f"comprehension does; {cure}")
        return loop_trips.trips_breach(rule, counted)
    for other in trace.related:
        if other.program is not None and other.program.equations != trace.program.equations:
            return Breach("unrolled_loop",
                          f"{trace.label} the traced program has {number(trace.program.equations)} "
                          f"equations, and {number(other.program.equations)} at {other.label}"
                          f"{_grows([('this case', trace.program), (other.label, other.program)])}: it "
                          f"repeats work for each index of {rule['dim']}, as a Python loop or "
                          f"comprehension does; batch it with jax.vmap or array operations")
    return None


def _own(rule: dict, trace: TraceEvidence) -> list:
    """The case's own program, where it is one the rule compares with the traces beside it:
    the program the case ran, traced with symbolic dims at the case's value of the parameter,
    none of the traces beside it at that value, and every derivative the judge takes traced in
    (a probe that failed may have been left out of it, which would make it shorter)."""
    K = rule["parameter"]
    at = loop_trips.value_at(trace, K)
    if trace.program is None or at is None or at == 1 or not trace.symbols or any(
            loop_trips.value_at(t, K) == at for t in trace.related):
        return []  # one step: no loop, and compared through the others only
    probes = getattr(trace.report, "probes", None)
    return [] if probes is not None and probes.errors else [trace]


def _named(trace: TraceEvidence, key: str) -> str:
    """How a message names a trace compared across the parameter: ``K = 5``."""
    at = loop_trips.value_at(trace, key)
    return f"{key} = {at}" if at is not None and not trace.label.startswith(f"{key} = ") else trace.label


def check_traces(rule: dict, traces: list[TraceEvidence], problem) -> Breach | None:
    counted = [(t.label, t.program.equations) for t in traces if t.program is not None]
    if "parameter" in rule:
        return _parameter_breach(rule, traces, counted)
    if len(counted) < 2 or len({n for _, n in counted}) == 1:
        return None
    told = ", ".join(f"{number(n)} at {label}" for label, n in counted)
    return Breach("unrolled_loop",
                  f"the traced program grows with {rule['dim']} ({told} equations"
                  f"{_grows([(t.label, t.program) for t in traces])}): it repeats "
                  f"work for each index of {rule['dim']}, as a Python loop or comprehension does; "
                  f"batch it with jax.vmap or array operations")


def _busiest(program) -> str:
    """``; line 12 makes 380 of them``: the line of the submission that made the most."""
    top = (getattr(program, "busiest", None) or [None])[0]
    return "" if top is None else f"; line {top[0]} makes {number(top[1])} of them"


def _grows(named: list) -> str:
    """``; line 12 makes 40 of them at K = 3 and 72 at K = 7``: the line of the submission whose
    equations grow the most from the shortest of the ``(name, program)`` pairs to the longest,
    as far as their ``busiest`` lines say (a line the shorter does not list grows from at most
    its least listed); empty where no line grows."""
    named = [(name, p) for name, p in named if p is not None]
    if len(named) < 2:
        return ""
    (low, small), (high, large) = (min(named, key=lambda np: np[1].equations),
                                   max(named, key=lambda np: np[1].equations))
    before = dict(getattr(small, "busiest", ()) or ())
    grown = [(n - before.get(line, 0), line, n) for line, n in getattr(large, "busiest", ()) or ()]
    grown = [g for g in grown if g[0] > 0]
    if not grown:
        return ""
    _, line, n = max(grown, key=lambda g: (g[0], -g[1]))
    if line in before:
        return f"; line {line} makes {number(before[line])} of them at {low} and {number(n)} at {high}"
    return f"; line {line} makes {number(n)} of them at {high}"


def _parameter_breach(rule: dict, traces: list[TraceEvidence], counted: list) -> Breach | None:
    """Across the traces at the rule's values of the parameter: the same count, and a loop
    primitive computing the output in each."""
    K = rule["parameter"]
    made = [t for t in traces if t.program is not None]
    if len(counted) >= 2 and _spread(made) > _slack(rule, made):
        told = ", ".join(f"{number(n)} at {label}" for label, n in counted)
        return Breach("unrolled_loop",
                      f"the traced program grows with {K} ({told} equations{_grows([(t.label, t.program) for t in made])}): it "
                      f"repeats work for "
                      f"each of the {K} steps, as a Python loop or comprehension does; write the "
                      f"steps as the body of lax.fori_loop, lax.scan or lax.while_loop")
    for t in traces:
        if t.program is not None and not any(primitive_names.count(t.program.live, n) for n in LOOPS):
            return Breach("unrolled_loop",
                          f"{t.label}: no loop primitive ({', '.join(LOOPS)}) computes the output"
                          f"{_busiest(t.program)}; "
                          f"the {K} steps must run in lax.fori_loop, lax.scan or lax.while_loop")
    return loop_trips.trips_breach(rule, [t for t in traces if t.program is not None])


def _spread(traces: list) -> int:
    counts = [t.program.equations for t in traces] or [0]  # how far apart the programs are
    return max(counts) - min(counts)


def _slack(rule: dict, traces: list) -> float:
    """How far apart the programs at different values of the parameter may be: a step and a half
    (one written out costs a little more than one in a trip), a step being a trip of the loop
    that computes the output and of the loops of the same count beside it (the backward loop of
    a loop differentiated through: ``loop_trips.trip_work``; 0 where a program has none) over the steps
    a trip runs (K over the trips at the largest K); where the trips are K // c at every K
    compared, c up to ``REST_CHUNK``, a step and a half for each of the c - 1 a rest may write
    out, whatever K a grade draws. The K % 8 left by trips of eight fails."""
    if not (loops := [loop_trips.computing(t.program) for t in traces]) or None in loops:
        return 0
    runs = [(loop_trips.value_at(t, rule["parameter"]), loop_trips.trips(t.program)) for t in traces]
    k, n = max(((k, n) for k, n in runs if k and isinstance(n, int) and n > 0), default=(0, 0))
    chunks = [c for c in range(2, REST_CHUNK + 1) if all(k and n == k // c for k, n in runs)]
    work = min(loop_trips.trip_work(t.program) for t in traces)
    return max([1.5 * work / max(k / n if n else 1, 1)] + [1.5 * (c - 1) * work / c for c in chunks])