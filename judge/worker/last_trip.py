"""The output of a case's program with one loop stopped one trip early (``shortened``), for the
judge to see whether that loop's last trip computes anything of the output.

Where a rule counts a loop's trips against a static int parameter K (``no_unrolling`` keyed on
``parameter``), a loop of K trips standing beside the code that computes the result (squarings
by K's bits, masked steps written out) passes every rule on the program's form. Its values
tell: the honest loop's last trip changes the output wherever the iteration has not converged,
a decoy's does not. So the program the case ran is evaluated again, at the case's own inputs,
with the loop the rule reads (``chosen``: of the loops whose count is a number, the one whose
trip runs the most equations, then the one holding it, up to the loops over a symbolic dim;
autodiff's backward loop left for the forward loop of the same count) stopped one trip early:

* a ``scan`` runs ``length - 1`` steps (the first ones; from the end where it is reversed), its
  stacked outputs padded with the last row it made (zeros where it made none);
* a ``while`` stops one trip before its test would: what it carries is what it held before
  its last trip (its first carry where it runs none).

Where the judge asks for it and the case's last trip moved the output, the same is measured with
a few trips before the last left out instead, one at a time, as one batch (``earlier``: picked
by a hash of the case's inputs, ``trip_skip``): the trip left out carries on what it was given,
what it only counts stepped all the same, every other trip runs. A loop of K trips whose last
trip takes a step under a ``cond`` while its other trips do nothing (their K - 1 steps computed
beside it) moves the output with its last trip left out, but not with another; an honest
loop's trips each take a step (or eight).

What merely counts the trips is not the work of a trip: every element of what the loop gives
out (its carries, its stacked rows) to which the last trip adds the same when the program runs
on its inputs moved (each floating input moved by a pseudo-random whole number of times one
plus its magnitude: a count kept in a float stays exact), and every integer one, keeps its full
run's value; only the rest comes from the shortened run. So ``output + (count - K)``, the count
an integer or a float, and a carry that converges whatever the inputs (``d / 2 + 1 / 2``, less
its closed form) move nothing, while a step's value computed from the inputs moves with them.
(A loop that only carries a value along adds nothing to it: kept, as it is anyway.)

Only the primal outputs (the first ``outputs`` of the program; not the derivatives the judge
traces in) are evaluated, by the worker's own evaluator. Decides nothing: the judge compares
the result with the case's output at the problem's tolerance (``judge.rules.last_trip``).
"""

from __future__ import annotations

import numpy as np

from . import jaxapi, reach, trip_skip

#: Output elements past which the shortened output is not measured (sent back whole).
MAX_ELEMENTS = 1 << 14
#: Equations the measurement's loops may evaluate step by step (``stepwise.Budget``): a loop
#: compiled by XLA for one case's shapes costs more than thousands of operations in NumPy
STEPPED = 1 << 16


def trip_count(length: str) -> int | None:
    """A loop's count as a number (``<=n`` read as n), None where it is data or a dim."""
    text = length[2:] if length.startswith("<=") else length
    return int(text) if text.isdigit() else None


def chosen(loops: list, computes=lambda i: True) -> int | None:
    """The index, among a summary's ``loops``, of the loop to stop early: of those whose count is
    a number, the one whose trip runs the most equations (then the one whose trips run the most
    times with its holders', then the longest), then the loop holding it, as long as the
    holder's count is a number too. Where ``computes(index)`` says that the primal output does
    not need that loop (autodiff's backward loop, heavier than the forward one), the loop of
    the same count that it needs and that does the most work per trip instead. None where no
    loop has a count that is a number."""
    def total(i):
        count, seen = 1, set()
        while i is not None and i not in seen:
            seen.add(i)
            own = trip_count(loops[i]["length"])
            count *= 1 if own is None else own
            i = loops[i].get("within")
        return count

    def weight(i):
        return loops[i].get("work", 0), total(i), trip_count(loops[i]["length"])

    numbered = [i for i, lp in enumerate(loops) if trip_count(lp["length"]) is not None]
    if not numbered:
        return None
    best = _outermost(loops, max(numbered, key=weight))
    if computes(best):
        return best
    same = {_outermost(loops, i) for i in numbered}
    same = [i for i in same if loops[i]["length"] == loops[best]["length"] and computes(i)]
    return max(same, key=weight) if same else best


def _outermost(loops: list, best: int) -> int:
    """``best``, or the loop holding it, as long as the holder's count is a number."""
    seen = {best}
    while True:
        holder = loops[best].get("within")
        if holder is None or holder in seen or not 0 <= holder < len(loops) \
                or trip_count(loops[holder]["length"]) is None:
            return best
        seen.add(holder)
        best = holder


def needed_by(jaxpr, path: list | None, wanted) -> bool:
    """Does one of the outputs at positions ``wanted`` of ``jaxpr`` (a concrete program) need the
    loop at ``path`` (through the calls and branches on the way)?"""
    if not path:
        return False
    from jax._src import core

    kept = {id(e) for e in _needed(jaxpr, wanted)}
    index, target = -1, None
    for eqn in jaxpr.eqns:
        index += eqn.primitive.name != "dim_as_value"
        if index == path[0]:
            target = eqn
            break
    if target is None or id(target) not in kept:
        return False
    if len(path) == 1:
        return True
    # the outputs of the call or branch that the wanted ones need
    live = {v for e in _needed(jaxpr, wanted) for v in e.invars if not isinstance(v, core.Literal)}
    live |= {v for v in (jaxpr.outvars[i] for i in wanted) if not isinstance(v, core.Literal)}
    inner = [i for i, v in enumerate(target.outvars) if v in live]
    if target.primitive.name == "cond":
        branch = target.params["branches"][path[1][1]]
        return needed_by(branch.jaxpr, path[2:], inner)
    sub = reach.call_body(target)
    return sub is not None and needed_by(reach.opened(sub), path[1:], inner)


def paths(closed, summarize) -> list:
    """The path (``reach.path_to``) of each loop of ``closed``'s summary, in its order."""
    found: list = []
    summarize(closed, paths=found)
    return found


def leaves(skeleton: dict, value, found: dict | None = None) -> dict:
    """The arrays of an encoded output (``output_data.fill``'s), by their skeleton's slots."""
    found = {} if found is None else found
    kind = skeleton.get("kind")
    if kind == "array" and isinstance(value, dict) and value.get("kind") == "array":
        found[skeleton["slot"]] = value
    elif kind in ("dict", "list", "tuple") and isinstance(value, dict):
        inner, items = skeleton["items"], value.get("items")
        pairs = (((inner[k], items.get(k)) for k in inner) if kind == "dict" and isinstance(items, dict)
                 else zip(inner, items) if isinstance(items, list) else ())
        for sub, item in pairs:
            leaves(sub, item, found)
    return found


def moved(short: list, own: dict, tolerance: dict) -> bool:
    """Does an array of ``short`` differ from the case's own (``own``: decoded, by slot) by more
    than ``atol + rtol * |own|`` somewhere (NaN against a number, too)? Only a hint to stop
    measuring: the judge compares at each output's own tolerance, never above these."""
    rtol, atol = float(tolerance.get("rtol", 0.0)), float(tolerance.get("atol", 0.0))
    for slot, a in own.items():
        if slot >= len(short):
            continue
        a, b = np.asarray(a, np.float64), np.asarray(short[slot], np.float64)
        if a.shape != b.shape or not np.all((np.abs(a - b) <= atol + rtol * np.abs(a))
                                            | (np.isnan(a) & np.isnan(b)) | (a == b)):
            return True
    return False


def no_step(jaxpr, path: list) -> bool:
    """Is the loop at ``path`` a scan of no step (nothing to leave out)?"""
    target = reach.find(jaxpr, path)
    return target is not None and target.primitive.name == "scan" and int(target.params["length"]) < 1


def shortened(concrete, path: list, inputs: list, outputs: int, evaluate,
              made: dict | None = None, skip: list | None = None, count: int | None = None) -> tuple | None:
    """The first ``outputs`` outputs of ``concrete`` (the program a case ran, made concrete at its
    dims) on ``inputs`` with the loop at ``path`` stopped one trip early (with ``skip``: for each
    trip it lists, by its index in the order the trips run, that trip left out instead: a list
    of such outputs; ``count``: the most trips the summary reads a while runs), as arrays,
    evaluated by ``evaluate(jaxpr, consts, *inputs)``, and the trips the loop ran in full (None
    where a ``cond`` lies on the way to it); None where it cannot be measured (no such loop, a
    scan of no step, an output too large). ``made``: the measuring programs traced already, kept
    there for the next case of the same program (they depend on the inputs' types alone)."""
    import jax

    key = (id(concrete), repr(path), outputs, None if skip is None else (len(skip), count),
           tuple((type(x), np.shape(x), str(np.result_type(x)), bool(getattr(x, "weak_type", False)))
                 for x in inputs))
    known = None if made is None else made.get(key)
    chosen_trips = [] if skip is None else [np.asarray(skip, np.int32)]  # an input: kept for every case
    if known is not None and known[0] is concrete:
        return _read(evaluate(known[1].jaxpr, known[1].consts, *chosen_trips, *inputs), outputs, skip)
    target = reach.find(concrete.jaxpr, path)
    if target is None or target.primitive.name not in ("scan", "while"):
        return None
    if target.primitive.name == "scan" and int(target.params["length"]) < 1:
        return None
    outs = concrete.jaxpr.outvars[:outputs]
    if sum(int(np.prod(v.aval.shape, dtype=np.int64)) for v in outs) > MAX_ELEMENTS:
        return None

    ran: list = []  # the trips the loop ran in full, where no branch lies on the way to it

    def once(values, skip):
        pairs = [(v, _moved(v, i)) for i, v in enumerate(values)]
        outs = _run(concrete.jaxpr, concrete.consts, pairs, list(path), outputs, ran, skip)
        return [*(real for real, _ in outs), *ran[:1]]

    def program(*values):
        if skip is None:
            return once(values, None)
        # each trip of ``skip`` (the first input) left out on its own, as one batch
        bound = trip_skip.bound(target, count)
        return jax.vmap(lambda j: once(values[1:], trip_skip.Skip(j, bound)))(values[0])

    measuring = jax.make_jaxpr(program)(*chosen_trips, *inputs)
    if made is not None:
        made[key] = (concrete, measuring)  # (the program kept: its id stays its own)
    return _read(evaluate(measuring.jaxpr, measuring.consts, *chosen_trips, *inputs), outputs, skip)


def _read(got, outputs: int, skip: list | None) -> tuple:
    """The measuring program's results: its outputs (one list per trip left out, with ``skip``)
    and the trips the loop ran in full."""
    got = list(got)
    trips = int(np.asarray(got[outputs]).reshape(-1)[0]) if len(got) > outputs else None
    if skip is not None:  # one output per trip left out
        return [[np.asarray(x)[k] for x in got[:outputs]] for k in range(len(skip))], trips
    return got[:outputs], trips


def _needed(jaxpr, wanted) -> list:
    """The equations the first ``wanted`` outputs (all where None; those at the positions
    ``wanted`` lists where it is a list) depend on, in order."""
    from jax._src import core

    outs = (jaxpr.outvars if wanted is None else [jaxpr.outvars[i] for i in wanted]
            if isinstance(wanted, list) else jaxpr.outvars[:wanted])
    live = {v for v in outs if not isinstance(v, core.Literal)}
    kept = []
    for eqn in reversed(jaxpr.eqns):
        if any(v in live for v in eqn.outvars) or not eqn.outvars:
            kept.append(eqn)
            live.update(v for v in eqn.invars if not isinstance(v, core.Literal))
    return kept[::-1]


def _bind(eqn, values: list) -> list:
    outs = eqn.primitive.bind(*values, **eqn.primitive.get_bind_params(eqn.params))
    return list(outs) if eqn.primitive.multiple_results else [outs]


def _run(jaxpr, consts, pairs, route: list, wanted: int | None = None, ran: list | None = None,
         skip=None) -> list:
    """``jaxpr`` interpreted on tracers twice over, on the case's inputs and on the inputs
    moved (``pairs``: each value as ``(case's, moved)``), the loop at the end of ``route``
    stopped early (its trip ``skip`` left out, where given); the calls and the ``cond`` branch
    on the way interpreted too (``reach.path_to``'s indices count no ``dim_as_value`` equation)."""
    from jax._src import core

    env: dict = {}

    def read(v):
        return (v.val, v.val) if isinstance(v, core.Literal) else env[v]

    for v, x in zip(jaxpr.constvars, consts):
        env[v] = (x, x)
    for v, x in zip(jaxpr.invars, pairs):
        env[v] = x
    index = -1
    needed = {id(e) for e in _needed(jaxpr, wanted)}
    for eqn in jaxpr.eqns:
        if eqn.primitive.name != "dim_as_value":
            index += 1
        if id(eqn) not in needed:
            continue
        ins = [read(v) for v in eqn.invars]
        if route and index == route[0]:
            outs = _on_route(eqn, ins, route[1:], ran, skip)
        else:
            outs = list(zip(_bind(eqn, [r for r, _ in ins]), _bind(eqn, [m for _, m in ins])))
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    return [read(v) for v in (jaxpr.outvars if wanted is None else jaxpr.outvars[:wanted])]


def _on_route(eqn, ins: list, rest: list, ran: list | None, skip) -> list:
    import jax
    from jax._src import core

    if not rest:
        return _loop(eqn, ins, ran, skip)
    if eqn.primitive.name == "cond":  # the moved inputs go the case's way too
        taken = rest[0][1]
        branches = eqn.params["branches"]

        def made(b, branch):
            def fn(*flat):
                pairs = list(zip(flat[0::2], flat[1::2]))
                if b == taken:  # trips not told from inside a branch
                    outs = _run(branch.jaxpr, branch.consts, pairs, rest[1:], skip=skip)
                else:
                    outs = zip(*(core.eval_jaxpr(branch.jaxpr, branch.consts, *side) for side in zip(*pairs)))
                return [x for pair in outs for x in pair]
            return fn
        flat = jax.lax.switch(ins[0][0], [made(b, br) for b, br in enumerate(branches)],
                              *[x for pair in ins[1:] for x in pair])
        return list(zip(flat[0::2], flat[1::2]))
    sub = reach.call_body(eqn)
    return _run(reach.opened(sub), getattr(sub, "consts", ()), ins, rest, None, ran, skip)


def _moved(value, seed: int):
    """A floating input moved by a fixed pseudo-random whole number of times one plus its
    magnitude, one to three each way (whole, so that a count kept in a float stays exact)."""
    import jax.numpy as jnp

    if not np.issubdtype(np.dtype(value.dtype), np.inexact):
        return value
    rng = np.random.default_rng(seed)
    steps = rng.integers(1, 4, size=np.shape(value)) * rng.choice([-1, 1], size=np.shape(value))
    return value + jnp.round(jnp.asarray(steps, value.dtype) * (1 + jnp.abs(value)))


def _loop(eqn, ins: list, ran: list | None, skip=None) -> list:
    """The loop's results with its last trip (its trip ``skip``, where given) left out, but for
    what only counts its trips (an element to which that trip adds the same where the
    program's inputs are moved, ``_moved``, or an integer one); the trips it ran in full go to
    ``ran``. The loop runs once on each side, the full run's results and what it held before
    its last trip both kept (``_scan``, ``_while``): the same operations, in the same order, as
    running it in full and again one trip short."""
    import jax.numpy as jnp

    if skip is None:
        full, short, trips = both_runs(eqn, [r for r, _ in ins])
        full_m, short_m, _ = both_runs(eqn, [m for _, m in ins])
    else:  # both sides at once: a trip's count is told from its work trip by trip
        params = eqn.primitive.get_bind_params(eqn.params)
        without = trip_skip.scan_without if eqn.primitive.name == "scan" else trip_skip.while_without
        full = eqn.primitive.bind(*[r for r, _ in ins], **params)
        full_m = eqn.primitive.bind(*[m for _, m in ins], **params)
        short, short_m, trips = without(eqn, [r for r, _ in ins], [m for _, m in ins], skip)
    if ran is not None:
        ran.append(trips)
    kept = [jnp.where((f - s) == (fm - sm), f, s) if np.issubdtype(np.dtype(f.dtype), np.inexact) else f
            for f, s, fm, sm in zip(full, short, full_m, short_m)]
    return list(zip(kept, full_m))


def both_runs(eqn, ins: list) -> tuple:
    """(the loop's results, its results one trip short, the trips it ran in full) for a ``scan``
    or ``while`` equation ``eqn`` on ``ins``, traced: one run of its trips, the same operations
    in the same order as the loop's own."""
    return (_scan if eqn.primitive.name == "scan" else _while)(eqn, ins)


def _scan(eqn, ins: list) -> tuple:
    """(the scan's results, its results one step short, its length): its first ``length - 1``
    steps (the last ones where it is reversed) as a scan, then the step left, from the carry
    they leave. One step short, the stacked outputs are padded with the last row made (zeros
    where none was)."""
    import jax
    from jax._src import core
    import jax.numpy as jnp

    p = eqn.params
    nc, ncarry = jaxapi.scan_layout(p, len(ins))
    consts, init, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
    body, length, reverse = p["jaxpr"], int(p["length"]), bool(p["reverse"])
    kept = [x[1:] if reverse else x[:length - 1] for x in xs]

    def step(carry, x):
        outs = core.eval_jaxpr(body.jaxpr, body.consts, *consts, *carry, *x)
        return list(outs[:ncarry]), list(outs[ncarry:])

    carry, ys = jax.lax.scan(step, list(init), kept, length=length - 1, reverse=reverse)
    last_carry, last_ys = step(carry, [x[0] if reverse else x[length - 1] for x in xs])
    padded, stacked = [], []
    for y, last, var in zip(ys, last_ys, eqn.outvars[ncarry:]):
        row = (y[:1] if reverse else y[-1:]) if length > 1 else jnp.zeros((1, *var.aval.shape[1:]), var.aval.dtype)
        padded.append(jnp.concatenate([row, y] if reverse else [y, row]))
        stacked.append(jnp.concatenate([last[None], y] if reverse else [y, last[None]]))
    return [*last_carry, *stacked], [*carry, *padded], jnp.int32(length)


def _while(eqn, ins: list) -> tuple:
    """(the loop's results, what it carried before its last trip (its first carry where it runs
    none), the trips it ran), from one run that keeps the carry before each trip."""
    import jax
    from jax._src import core

    p = eqn.params
    cc, bc = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, init = ins[:cc], ins[cc:cc + bc], ins[cc + bc:]
    cond, body = p["cond_jaxpr"], p["body_jaxpr"]

    def go(carry):
        return core.eval_jaxpr(cond.jaxpr, cond.consts, *cconsts, *carry[1])[0]

    def step(carry):
        return (list(carry[1]), list(core.eval_jaxpr(body.jaxpr, body.consts, *bconsts, *carry[1])),
                carry[2] + 1)

    before, full, trips = jax.lax.while_loop(go, step, (list(init), list(init), jax.numpy.int32(0)))
    return full, before, trips
