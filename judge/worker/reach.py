"""How much of a program's output a loop's recurrence reaches, element by element (``reach``).

A loop whose carry reaches the output array by array may still compute one column of it while
everything else comes from elsewhere (a closed form beside a scan over one column). This
module measures, on the program made concrete at chosen extents of its symbolic dims and run on
inputs of the judge's own (a fixed random draw), how many elements of the output the loop's
recurrent carries reach *each by an element of its own*:

* every element of every recurrent floating carry (``loops.loop_summary``), at every step, is
  a source: the program is run once per source with a NaN added to that element of the carry
  as the step reads it (all runs batched with ``vmap``);
* an output element depends on a source when it comes out NaN in that run (and not in the
  run without any NaN);
* ``reached`` is the size of a largest matching between the floating output elements and the
  sources, each output element matched to a source it depends on, no source used twice.

So a scan over one column broadcast to every column reaches as many elements as it has steps,
not the whole output, whatever factor (tiny, or a difference that is zero) it is broadcast
with; a scan over every column of which one is used reaches one column. Dependence is
structural at the element level (NaN propagates through ``0 * c`` and ``c - c``, and is lost
through a comparison), which is what an honest recurrence with a decay of 0 needs.

Decides nothing: ``judge.rules.required_primitives`` reads the counts.
"""

from __future__ import annotations

import numpy as np

from . import jaxapi

#: Sources measured at most (steps times the recurrent carries' elements): past this, the
#: loop's reach is not measured.
MAX_SOURCES = 1 << 15
#: Floating output elements measured at most.
MAX_OUTPUTS = 1 << 13
#: The extent a symbolic dim takes for the measurement, within its range.
EXTENT = 32

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
        sub = _call_body(eqn)
        if sub is not None:
            found = path_to(_open(sub), target)
            if found is not None:
                return [index, *found]
        if eqn.primitive.name == "cond":
            for b, branch in enumerate(eqn.params["branches"]):
                found = path_to(_open(branch), target)
                if found is not None:
                    return [index, ("branch", b), *found]
        index += 1
    return None


def _open(jaxpr):
    return jaxpr.jaxpr if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr.jaxpr, "eqns") else jaxpr


def _call_body(eqn):
    key = _CALLS.get(eqn.primitive.name)
    sub = eqn.params.get(key) if key else None
    return sub if sub is not None and hasattr(_open(sub), "eqns") else None


def measure(closed, path: list, recurrent: set, outputs: int, at: dict) -> dict | None:
    """``{"reached": n, "outputs": m, "steps": s}`` for the loop at ``path`` in ``closed`` (a
    concrete closed jaxpr), whose carries at the body's input positions ``recurrent`` are the
    recurrence, over the first ``outputs`` outputs of the program; ``steps`` is how many steps
    the loop ran; ``at`` the extents the program was made concrete at (its symbolic dims').
    None when it cannot be measured."""
    import jax
    import jax.numpy as jnp
    from jax._src import core

    rng = np.random.default_rng(0)
    args = [_sample(rng, v.aval) for v in closed.jaxpr.invars]
    layout: list = []  # (carry index, offset, size) of each recurrent floating carry
    width = [0]
    counted: list = []  # the loop's count of steps, as the run computes it

    def perturb(carries, t, k):
        found = []
        for i, c in enumerate(carries):
            spot = next((s for s in layout if s[0] == i), None)
            if spot is None:
                found.append(c)
                continue
            _, offset, size = spot
            at = k - (t * width[0] + offset)
            hit = jnp.arange(size).reshape(jnp.shape(c)) == at
            found.append(jnp.where(hit, jnp.asarray(jnp.nan, c.dtype), c))
        return found

    def loop(eqn, ins, k):
        p = eqn.params
        if eqn.primitive.name == "scan":
            nc, ncarry = jaxapi.scan_layout(p, len(ins))
            consts, init, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
            body = p["jaxpr"]

            def step(carry, x):
                t, cs = carry
                outs = core.eval_jaxpr(body.jaxpr, body.consts, *consts, *perturb(cs, t, k), *x)
                return (t + 1, list(outs[:ncarry])), list(outs[ncarry:])

            (t, cs), ys = jax.lax.scan(step, (jnp.int32(0), list(init)), list(xs),
                                       length=p["length"], reverse=p["reverse"])
            counted.append(t)
            return [*cs, *ys]
        cc, bc = p["cond_nconsts"], p["body_nconsts"]
        cconsts, bconsts, init = ins[:cc], ins[cc:cc + bc], ins[cc + bc:]
        cond, body = p["cond_jaxpr"], p["body_jaxpr"]

        def go(carry):
            return core.eval_jaxpr(cond.jaxpr, cond.consts, *cconsts, *carry[1])[0]

        def step(carry):
            t, cs = carry
            return t + 1, list(core.eval_jaxpr(body.jaxpr, body.consts, *bconsts, *perturb(cs, t, k)))

        t, cs = jax.lax.while_loop(go, step, (jnp.int32(0), list(init)))
        counted.append(t)
        return cs

    def branch(eqn, ins, taken: int, route, k):
        # the loop's branch interpreted on the way to it, the others as they are; the loop's
        # count of steps comes out of the branch as one more result (0 where not taken)
        def made(j, closed_branch):
            def fn(*values):
                counted.clear()
                outs = run(closed_branch.jaxpr, closed_branch.consts, values, route if j == taken else [], k)
                t = counted[0] if counted else jnp.int32(0)
                counted.clear()
                return [*outs, t]
            return fn

        found = jax.lax.switch(ins[0], [made(j, b) for j, b in enumerate(eqn.params["branches"])], *ins[1:])
        counted.append(found[-1])
        return list(found[:-1])

    def run(jaxpr, consts, values, route, k):
        env: dict = {}

        def read(v):
            return v.val if isinstance(v, core.Literal) else env[v]

        for v, x in zip(jaxpr.constvars, consts):
            env[v] = x
        for v, x in zip(jaxpr.invars, values):
            env[v] = x
        for i, eqn in enumerate(jaxpr.eqns):
            ins = [read(v) for v in eqn.invars]
            if route and i == route[0] and len(route) == 1:
                outs = loop(eqn, ins, k)
            elif route and i == route[0] and eqn.primitive.name == "cond":
                outs = branch(eqn, ins, route[1][1], route[2:], k)
            elif route and i == route[0]:
                sub = _call_body(eqn)
                outs = run(_open(sub), getattr(sub, "consts", ()), ins, route[1:], k)
            else:
                outs = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
                outs = outs if eqn.primitive.multiple_results else [outs]
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        return [read(v) for v in jaxpr.outvars]

    target = _find(closed.jaxpr, path)
    if target is None or target.primitive.name not in ("scan", "while"):
        return None
    body = target.params["jaxpr" if target.primitive.name == "scan" else "body_jaxpr"].jaxpr
    offset = 0
    first = (jaxapi.scan_layout(target.params, len(target.invars))[0] if target.primitive.name == "scan"
             else target.params["body_nconsts"])
    for position in sorted(recurrent):
        var = body.invars[position]
        size = int(np.prod(var.aval.shape, dtype=np.int64))
        layout.append((position - first, offset, size))
        offset += size
    width[0] = offset
    floating = [i for i, v in enumerate(closed.jaxpr.outvars[:outputs])
                if jnp.issubdtype(v.aval.dtype, jnp.inexact)]
    count = sum(int(np.prod(closed.jaxpr.outvars[i].aval.shape, dtype=np.int64)) for i in floating)
    if not offset or not count or count > MAX_OUTPUTS:
        return None

    def marked(k):
        counted.clear()
        outs = run(closed.jaxpr, closed.consts, args, path, k)
        return jnp.concatenate([jnp.isnan(jnp.ravel(outs[i])) for i in floating]), counted[0]

    if target.primitive.name == "scan":
        steps = int(target.params["length"])
    else:  # a while loop's count of steps is the run's
        steps = int(jax.jit(marked)(jnp.int32(-1))[1])
    sources = offset * steps
    if not sources or sources > MAX_SOURCES:
        return None
    # one run without a NaN (k = -1: an output NaN there depends on nothing), one per source
    hits = np.asarray(jax.jit(jax.vmap(lambda k: marked(k)[0]))(jnp.arange(-1, sources, dtype=jnp.int32)))
    hits = hits[1:] & ~hits[:1]
    return {"reached": matching(hits), "outputs": int(count), "steps": steps, "at": dict(at)}


def matching(hits) -> int:
    """The size of a largest matching in the bipartite graph whose edges are ``hits``
    (sources by output elements)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if not hits.any():
        return 0
    matched = maximum_bipartite_matching(csr_matrix(hits.astype(np.int8)), perm_type="column")
    return int((matched >= 0).sum())


def _find(jaxpr, path: list):
    eqn, steps = None, list(path)
    while steps:
        index = steps.pop(0)
        if index >= len(jaxpr.eqns):
            return None
        eqn = jaxpr.eqns[index]
        if not steps:
            break
        if eqn.primitive.name == "cond":
            jaxpr = _open(eqn.params["branches"][steps.pop(0)[1]])
            continue
        sub = _call_body(eqn)
        if sub is None:
            return None
        jaxpr = _open(sub)
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
