"""How much of a program's output a loop's recurrence reaches, element by element (``reach``).

A loop whose carry reaches the output array by array may still compute one column of it while
everything else comes from elsewhere (a closed form beside a scan over one column). This
module measures, on the program made concrete at chosen extents of its symbolic dims and run on
inputs of the judge's own (a fixed random draw), how many elements of the output the loop's
recurrent carries reach *each by an element of its own*:

* every element of every recurrent floating carry (``loops.loop_summary``), at every step, is
  a source: the program is run once per source with a NaN added to that element of the carry
  as the step reads it (all runs batched with ``vmap``); an output element depends on a source
  when it comes out NaN in that run (and not in the run without any NaN);
* every element of the loop's results (its final carries, its scanned outputs, the refs it
  writes) is a result: the program is run once per result with that element *moved* by one
  plus its magnitude as it leaves the loop, and an output element shows the result when its
  value differs from the run without any move (compared as values: ``-0.0`` is ``0.0``);
* a source counts where some step computes that element of the carry from its data (each
  step's data all NaN in turn, or moved: a buffer the loop only carries along is no recurrence)
  and where its step's data, moved far up or far down (``MOVE`` times one plus their magnitude,
  in runs of their own), change the output: a step that computes nothing from its data (the
  carry times one plus the data times zero) shows none of it (``reach_count``);
* ``reached`` is the smaller of two matchings, each a largest one in which no output element
  and no source or result is used twice: output elements to sources they depend on, and output
  elements to results they show (of the results some source reaches).

So a scan over one column broadcast to every column reaches as many elements as it has steps;
a scan over every column of which one is used reaches one column; a full recurrence whose
results the output never shows (times zero, minus itself, through a ``where`` that compares it
with itself, times 1e-30) reaches nothing, though NaN flows through all of these, and so does a
dummy one whose data never show.

Why the halves differ. Inside the loop the carry's share of the next step can vanish in honest
code (a decay of 0; a decay of 1e-10 in ``c + (1 - 1e-10) * (x - c)``, which is ``x`` in
float32; a running maximum or a clip where the data win): a move or a derivative of the carry
would see no change there, so the carry side stays structural. Where the recurrence leaves the
loop, an honest output *is* its results or copies of them (stacked, transposed, sliced), which
a move of one plus the magnitude always changes; arithmetic that rounds the results away or
cancels them does not compute the output from the loop. A step's data are moved both ways and
far: an honest step changes the output one way or the other (through a maximum or a clip, one
direction turns the comparison); only a step whose next carry ignores its data shows nothing.
What the values cannot tell: a use of the results and data that does show (a blend with weight
1e-3 of the loop and a closed form; running sums by a scan minus the same by doubling; two full
loops that cancel, each measured with the other as it is), which runs the honest loop's work.
NaN does not flow through a comparison: a step that updates its carry only where a test of its
data holds (``where(x > 0, f(c, x), c)``) writes it from its data when they are moved instead.

A ``jax.debug.print`` in the program (allowed: it computes nothing) is left out of the batched
runs (``debug_batching.dropped_under_vmap``): it would be compiled and printed once per run.

Decides nothing: ``judge.rules.required_primitives`` reads the counts.
"""

from __future__ import annotations

import numpy as np

from . import debug_batching, jaxapi, reach_count, reach_key
from .loops import is_ref

#: Sources measured at most (steps times the recurrent carries' elements): past this, the
#: loop's reach is not measured.
MAX_SOURCES = 1 << 15
#: How far a step's data are moved, in units of one plus their magnitude (no rounding absorbs it)
MOVE = 1e4
#: Floating output elements measured at most.
MAX_OUTPUTS = 1 << 13
#: The extent a symbolic dim takes for the measurement, within its range.
EXTENT = 32

#: XLA's options for a program compiled to run once.
QUICK = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}

#: Calls whose body's inputs and outputs are the equation's, one for one: the interpreter
#: steps into them on the way to the loop it perturbs.
_CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
          "named_call": "call_jaxpr", "checkpoint": "jaxpr", "remat": "jaxpr", "remat2": "jaxpr",
          "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}


def extents(symbols: dict) -> dict:
    """The extent each symbolic dim takes for the measurement: ``EXTENT`` within its range."""
    found = {}
    for name, (low, high) in symbols.items():
        value = EXTENT if high is None else min(int(high), EXTENT)
        found[name] = max(int(low), value)
    return found


def path_to(jaxpr, target) -> list | None:
    """The indices leading to ``target`` through calls (``_CALLS``) and ``cond`` branches
    (``("branch", b)`` after the cond's index), each counted without the ``dim_as_value``
    equations (made literals when the program is made concrete); None when the loop is not
    reached that way (inside another loop's body)."""
    index = 0
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "dim_as_value":
            continue
        if eqn is target:
            return [index]
        sub = call_body(eqn)
        if sub is not None:
            found = path_to(opened(sub), target)
            if found is not None:
                return [index, *found]
        if eqn.primitive.name == "cond":
            for b, branch in enumerate(eqn.params["branches"]):
                found = path_to(opened(branch), target)
                if found is not None:
                    return [index, ("branch", b), *found]
        index += 1
    return None


def with_choices(path: list, taken) -> list:
    """``path`` (``path_to``'s) with the branches each of its conds may take (``taken``, in the
    order the path meets them; none given: the cond runs as it is): ``("branch", b, branches)``."""
    choices = iter(taken)
    return [(*step, tuple(next(choices, ()))) if isinstance(step, tuple) else step for step in path]


def opened(jaxpr):
    return jaxpr.jaxpr if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr.jaxpr, "eqns") else jaxpr


def call_body(eqn):
    key = _CALLS.get(eqn.primitive.name)
    sub = eqn.params.get(key) if key else None
    return sub if sub is not None and hasattr(opened(sub), "eqns") else None


def _evaluated(length: str, at: dict) -> int | None:
    """A loop's length (``T``, ``T - 1``) at the extents ``at``; None when it names no dim."""
    import jax

    try:
        return int(jax.export.symbolic_shape(length)[0]._evaluate(at))
    except Exception:  # noqa: BLE001 - not an expression over these dims
        return None


def measure(closed, path: list, recurrent: set, outputs: int, at: dict, length: str,
            edges: list | None = None, taken: list = (), fixed: set = frozenset()) -> dict | None:
    """``{"reached": n, "outputs": m, "steps": s}`` for the loop at ``path`` in ``closed`` (a
    concrete closed jaxpr), whose carries at the body's input positions ``recurrent`` are the
    recurrence, over the first ``outputs`` outputs of the program; ``steps`` is how many steps
    the loop ran; ``at`` the extents the program was made concrete at (its symbolic dims');
    ``length`` the loop's length as text (a while loop's count of steps); ``taken`` the
    branches each ``cond`` on the path may take on the cases (``reach_branch.taken``; one:
    the cond runs as it is), less ``fixed`` (``reach_branch.fixed``: branches whose output reads
    none of the inputs). None when it cannot be measured. ``edges``, where given, gets the
    loop's matched pairs (``reach_count.edges``), unless a cond that may take another branch
    lies on the way to it (each branch then has its own)."""
    import jax
    import jax.numpy as jnp
    from jax._src import core

    rng = np.random.default_rng(0)
    args = [_sample(rng, v.aval) for v in closed.jaxpr.invars]
    layout: list = []  # (carry index, offset, size) of each recurrent floating carry
    width = [0]
    #: what the loop's run gives out: its count of steps, and which of its floating results
    #: are NaN (before a result is moved)
    counted: list = []
    lifted: dict = {}    # id of a floating literal -> its place among the arguments
    forced: list = []    # the branch a cond that may take several is made to take (-1: its own)
    forcing: list = []   # the branches each such cond may take, as the trace meets them
    literals: list = []  # those arguments, while the program is traced

    def nan_at(value, index):
        hit = jnp.arange(jnp.size(value)).reshape(jnp.shape(value)) == index
        return jnp.where(hit, jnp.asarray(jnp.nan, value.dtype), value)

    def moved_at(value, index):
        """``value`` with one element moved by one plus its magnitude: a finite value, as far
        from the old one as the old one is from zero, plus one, so no rounding absorbs it."""
        hit = jnp.arange(jnp.size(value)).reshape(jnp.shape(value)) == index
        return jnp.where(hit, value + (1 + jnp.abs(value)).astype(value.dtype), value)

    def perturb(carries, t, k):
        found = list(carries)
        for i, offset, _ in layout:
            found[i] = nan_at(found[i], k - (t * width[0] + offset))
        return found

    def data(values, variables, t, j):
        """The step's data (its constants, its rows; ``variables``: the body's inputs they are),
        but for the refs (memory the step writes, not data): all NaN at step ``j`` where ``j <
        steps``, all moved far up (``j - steps``) or far down (``j - 2 steps``) at that step
        where ``j`` is above."""
        at = (j >= 0) & (j < 3 * steps) & (t == j % steps)
        sign = jnp.where(j < 2 * steps, 1, -1)

        def made(v):
            far = v + (sign * MOVE * (1 + jnp.abs(v))).astype(v.dtype)
            return jnp.where(at, jnp.where(j < steps, jnp.asarray(jnp.nan, v.dtype), far), v)
        return [made(v) if _inexact(v) and not is_ref(var) else v for v, var in zip(values, variables)]

    def written(carries, t, j):
        """Which elements of the recurrent carries the step ``j`` computed from its data."""
        flat = [jnp.ravel(jnp.isnan(carries[i])) for i, _, _ in layout]
        return (t == j) & jnp.concatenate(flat)

    def snapped(carries, t, j, snap):
        """The recurrent carries after step ``j % steps``, kept where ``j`` is a row that moves a
        step's data or moves nothing (``j >= steps``): what that step computed."""
        flat = jnp.concatenate([jnp.ravel(carries[i]) for i, _, _ in layout])
        return jnp.where((j >= steps) & (t == j % steps), flat.astype(snap.dtype), snap)

    def loop(eqn, ins, k, r, j):
        p = eqn.params
        if eqn.primitive.name == "scan":
            nc, ncarry = jaxapi.scan_layout(p, len(ins))
            consts, init, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
            body = p["jaxpr"]

            def step(carry, x):
                t, cs, seen, snap = carry
                inner = body.jaxpr.invars
                outs = run(body.jaxpr, body.consts, [*data(consts, inner[:nc], t, j), *perturb(cs, t, k),
                                                     *data(x, inner[nc + ncarry:], t, j)], [], k, r, j)
                cs = list(outs[:ncarry])
                return (t + 1, cs, seen | written(cs, t, j), snapped(cs, t, j, snap)), list(outs[ncarry:])

            (t, cs, seen, snap), ys = jax.lax.scan(step, (jnp.int32(0), list(init), *unseen()),
                                                   list(xs), length=p["length"], reverse=p["reverse"])
            outs = [*cs, *ys]
        else:
            cc, bc = p["cond_nconsts"], p["body_nconsts"]
            cconsts, bconsts, init = ins[:cc], ins[cc:cc + bc], ins[cc + bc:]
            cond, body = p["cond_jaxpr"], p["body_jaxpr"]

            def go(carry):
                return run(cond.jaxpr, cond.consts, [*cconsts, *carry[1]], [], k, r, j)[0]

            def step(carry):
                t, cs, seen, snap = carry
                cs = list(run(body.jaxpr, body.consts, [*data(bconsts, body.jaxpr.invars[:bc], t, j),
                                                        *perturb(cs, t, k)], [], k, r, j))
                return t + 1, cs, seen | written(cs, t, j), snapped(cs, t, j, snap)

            t, outs, seen, snap = jax.lax.while_loop(go, step, (jnp.int32(0), list(init), *unseen()))
        flags, offset = [], 0
        for kind, i in results:  # a result, or a ref the loop writes: what it holds after
            value = outs[i] if kind == "out" else ins[i][...]
            flags.append(jnp.isnan(jnp.ravel(value)))
            value = moved_at(value, r - offset)
            offset += int(np.prod(np.shape(value), dtype=np.int64))
            if kind == "out":
                outs[i] = value
            else:
                ins[i][...] = value
        counted.append((t, jnp.concatenate(flags), seen, snap))
        return outs

    def unseen():
        """Nothing written, and the carries' elements at no step (zeros, of their common type)."""
        kinds = [np.dtype(_aval(v).dtype) for v in (body.invars[p] for p in sorted(recurrent))]
        return jnp.zeros(width[0], bool), jnp.zeros(width[0], np.result_type(*kinds))

    def branch(eqn, ins, taken: int, route, k, r, j, choices: tuple):
        # the loop's branch interpreted on the way to it, the others as they are; what the
        # loop gives out comes out of the branch as more results (nothing seen where not taken)
        def made(b, closed_branch):
            def fn(*values):
                counted.clear()
                outs = run(closed_branch.jaxpr, closed_branch.consts, values, route if b == taken else [],
                           k, r, j)
                t, flags, seen, snap = counted[0] if counted else (jnp.int32(0), jnp.zeros(size, bool), *unseen())
                counted.clear()
                return [*outs, t, flags, seen, snap]
            return fn

        index = ins[0]
        if len(choices) > 1:  # a branch the cases may not all take: each measured in turn
            forcing.append(choices)
            index = jnp.where(forced[0] >= 0, forced[0], index).astype(jnp.int32)
        found = jax.lax.switch(index, [made(b, c) for b, c in enumerate(eqn.params["branches"])], *ins[1:])
        counted.append(tuple(found[-4:]))
        return list(found[:-4])

    def run(jaxpr, consts, values, route, k, r, j):
        env: dict = {}

        def read(v):
            if isinstance(v, core.Literal):
                at = lifted.get(id(v))
                return v.val if at is None else literals[0][at]
            return env[v]

        for v, x in zip(jaxpr.constvars, consts):
            env[v] = x
        for v, x in zip(jaxpr.invars, values):
            env[v] = x
        for i, eqn in enumerate(jaxpr.eqns):
            ins = [read(v) for v in eqn.invars]
            if route and i == route[0] and len(route) == 1:
                outs = loop(eqn, ins, k, r, j)
            elif route and i == route[0] and eqn.primitive.name == "cond":
                outs = branch(eqn, ins, route[1][1], route[2:], k, r, j, route[1][2])
            elif route and i == route[0]:
                sub = call_body(eqn)
                outs = run(opened(sub), getattr(sub, "consts", ()), ins, route[1:], k, r, j)
            else:
                outs = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
                outs = outs if eqn.primitive.multiple_results else [outs]
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        return [read(v) for v in jaxpr.outvars]

    target = find(closed.jaxpr, path)
    path = with_choices(path, taken)
    if target is None or target.primitive.name not in ("scan", "while"):
        return None
    body = target.params["jaxpr" if target.primitive.name == "scan" else "body_jaxpr"].jaxpr
    offset = 0
    first = (jaxapi.scan_layout(target.params, len(target.invars))[0] if target.primitive.name == "scan"
             else target.params["body_nconsts"])
    for position in sorted(recurrent):
        layout.append((position - first, offset, _size(body.invars[position])))
        offset += _size(body.invars[position])
    width[0] = offset
    results = [("out", i) for i, v in enumerate(target.outvars) if _floating(v)] + [
        ("ref", i) for i, v in enumerate(target.invars) if is_ref(v) and _floating(v)]
    size = sum(_size((target.outvars if kind == "out" else target.invars)[i]) for kind, i in results)
    floating = [i for i, v in enumerate(closed.jaxpr.outvars[:outputs]) if _floating(v)]
    count = sum(_size(closed.jaxpr.outvars[i]) for i in floating)
    if not offset or not count or count > MAX_OUTPUTS or size > MAX_SOURCES:
        return None

    def marked(k, r, j, values, consts, inputs, force):
        counted.clear()
        literals[:] = [values]
        forced[:] = [force]
        outs = run(closed.jaxpr, consts, inputs, path, k, r, j)
        t, flags, seen, snap = counted[0]
        return [jnp.ravel(outs[i]) for i in floating], flags, seen, snap, t

    def measuring(k, r, j, values, consts, inputs, force):
        """Every run batched; an output element is hit by a run with a NaN where it is NaN, by
        a run with a result moved where its value differs from the run without either (row 0;
        ``-0.0`` is ``0.0``, a NaN there stays one)."""
        outs, flags, seen, snap, t = jax.vmap(marked, in_axes=(0, 0, 0, None, None, None, None))(
            k, r, j, values, consts, inputs, force)
        moved = ((r >= 0) | (j >= steps))[:, None]
        hits = [jnp.where(moved, ~((o == o[:1]) | (jnp.isnan(o) & jnp.isnan(o[:1]))), jnp.isnan(o))
                for o in outs]
        return jnp.concatenate(hits, axis=1), flags, seen, snap, t

    if target.primitive.name == "scan":
        steps = int(target.params["length"])
    else:  # a fori_loop's while: its length's text at these extents (at most that many, for
        # a loop that may stop early: the runs count the steps it takes)
        steps = _evaluated(length.removeprefix("<="), at)
        if steps is None:
            return None
    sources = offset * steps
    if not sources or sources > MAX_SOURCES:
        return None
    # one run without a NaN or a move (an output NaN there depends on nothing); one per element
    # of a recurrent carry at a step (a NaN); one per element of the loop's results (moved); one
    # per step, its data all NaN; two per step, its data moved far up, then far down; one per
    # step that moves nothing but keeps what the step computed
    none = np.full(size + sources + 4 * steps + 1, -1)
    k, r, j = none.copy(), none.copy(), none.copy()
    k[1:1 + sources] = np.arange(sources)
    r[1 + sources:1 + sources + size] = np.arange(size)
    j[1 + sources + size:] = np.arange(4 * steps)
    batch = [jnp.asarray(a, jnp.int32) for a in (k, r, j)]
    # compiled without XLA's costlier passes: the program runs once, its compilation is the cost
    # the floating literals (a decay), the program's constants and the inputs are arguments, not
    # constants of the compiled program: programs that differ only in them compile once
    lifted.update(reach_key.literals(closed.jaxpr))
    shared = ([jnp.asarray(v.val, v.aval.dtype) for v in reach_key.lifted_vars(closed.jaxpr)],
              list(closed.consts), args)
    key = reach_key.fingerprint(closed, reach_key.lifted_vars(closed.jaxpr),
                       (tuple(map(str, path)), tuple(sorted(recurrent)), outputs, steps, size))
    compiled = reach_key.COMPILED.get(key)
    if compiled is None:
        forcing.clear()
        measured = jax.jit(measuring)
        with debug_batching.dropped_under_vmap():  # a print in the loop, printed once per run
            lowered = measured.lower(*batch, *shared, jnp.int32(-1))
        compiled = lowered.compile(compiler_options=QUICK)
        if len(reach_key.COMPILED) >= 64:
            reach_key.COMPILED.clear()
        reach_key.COMPILED[key] = compiled, list(forcing)
    compiled, branches = reach_key.COMPILED[key]
    if len(branches) > 1:
        return None  # more than one cond on the way that may take several branches: not measured
    # a cond on the way to the loop whose cases may take several branches (one on T's value, on
    # the data): the reach is the least over those branches, each taken in turn
    # (a branch whose output reads none of the inputs, a constant fill, is left out: a case
    # taking it is graded by that fixed output's values)
    forced_ones = [b for b in branches[0] if b not in fixed] if branches else [-1]
    found = [reach_count.edges(compiled(*batch, *shared, jnp.int32(b)), sources, size, steps)
             for b in forced_ones]
    if edges is not None and len(found) == 1:
        edges.append(found[0])  # for the reach of several loops together (``loop_list``)
    reached = min(reach_count.together([f]) for f in found)
    return {"reached": reached, "outputs": int(count), "steps": steps, "at": dict(at)}


def _aval(var):
    """A value's type, a ref's the array it holds."""
    return getattr(var.aval, "inner_aval", var.aval)


def _size(var) -> int:
    return int(np.prod(_aval(var).shape, dtype=np.int64))


def _inexact(value) -> bool:
    return np.issubdtype(np.dtype(value.dtype), np.inexact)


def _floating(var) -> bool:
    return np.issubdtype(np.dtype(_aval(var).dtype), np.inexact)


def find(jaxpr, path: list):
    eqn, steps = None, list(path)
    while steps:
        index = steps.pop(0)
        if index >= len(jaxpr.eqns):
            return None
        eqn = jaxpr.eqns[index]
        if not steps:
            break
        if eqn.primitive.name == "cond":
            jaxpr = opened(eqn.params["branches"][steps.pop(0)[1]])
            continue
        sub = call_body(eqn)
        if sub is None:
            return None
        jaxpr = opened(sub)
    return eqn


def _sample(rng, aval):
    """An input of the judge's own for ``aval``: normal floats, zeros for integers, ones for
    bools."""
    shape, dtype = tuple(int(d) for d in aval.shape), np.dtype(aval.dtype)
    if np.issubdtype(dtype, np.floating) or np.issubdtype(dtype, np.complexfloating):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return np.ones(shape, dtype)
    return np.zeros(shape, dtype)
