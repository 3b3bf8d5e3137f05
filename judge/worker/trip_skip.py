"""A loop of a case's program with one trip before its last left out (``earlier``), for the
judge to see that every trip computes, not its last alone (``judge.worker.last_trip`` leaves the
last out): a loop of K trips that takes its step under a ``cond`` at its last trip only, or at a
few trips, the other steps computed beside it, moves the output where its last trip is left
out but not where another is.

The trip left out carries on what it was given (each floating element, unless that trip adds
the same to it where the program's inputs are moved, as ``judge.worker.last_trip`` tells a
count: a counter, integer or float, steps all the same), its stacked row the row before it;
every other trip runs.
Which trips (``chosen``): a few of those before the last (every one where there are no more),
picked by a hash of the case's inputs, so that a program cannot tell from its form which trips
are measured: a loop that works at a share of its trips only (squarings at the trips a
power-of-two distance from its last) keeps a trip measured idle unless that share is nearly
all of them. The measurement is batched over them (the trip index a traced value, an input of
the measuring program: ``jax.vmap``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import jaxapi, reach

#: Trips before the last left out one at a time (``earlier``) on one case, at most
EARLIER = 3


def chosen(jaxpr, path: list, count: int | None, inputs: list, outputs: int, max_elements: int) -> list | None:
    """The trips to leave out of the loop at ``path`` one at a time besides its last
    (``earlier``): ``EARLIER`` of the trips before the last (every one where there are no more),
    picked by a hash of the case's ``inputs``, so that a program cannot tell from its form which
    are measured, in the order they run; fewer where their outputs together would pass
    ``max_elements``. ``count``: the trips the summary reads, for a while loop (a scan's is its
    length); ``outputs``: the program's primal outputs. None where the loop runs fewer than two
    trips."""
    import hashlib

    target = reach.find(jaxpr, path)
    if target is None or target.primitive.name not in ("scan", "while"):
        return None
    trips = int(target.params["length"]) if target.primitive.name == "scan" else count
    if trips is None or trips < 2:
        return None
    size = max(1, sum(int(np.prod(v.aval.shape, dtype=np.int64)) for v in jaxpr.outvars[:outputs]))
    room = max(1, min(EARLIER, max_elements // size))
    if trips - 1 <= room:
        return list(range(trips - 1))
    digest = hashlib.blake2b(digest_size=8)
    for x in inputs:
        a = np.ascontiguousarray(np.asarray(x))
        digest.update(f"{a.dtype.str}{a.shape}".encode())
        digest.update(a.tobytes())
    rng = np.random.default_rng(int.from_bytes(digest.digest(), "little"))
    return sorted(int(j) for j in rng.choice(trips - 1, size=room, replace=False))


def bound(eqn, count: int | None) -> int:
    """The trips ``while_without`` runs a while at ``eqn`` for: ``count`` (a scan's: its length)."""
    return int(eqn.params["length"]) if eqn.primitive.name == "scan" else int(count or 0)


def held(skipping, old: tuple, new: tuple) -> tuple:
    """``new`` on both sides (the case's inputs, the moved ones: ``(old_r, old_m)``,
    ``(new_r, new_m)``), but where ``skipping``, each floating element as ``old`` had it, unless
    the trip adds the same to it on both sides: a count (a float counter steps all the same, as
    an integer does)."""
    import jax.numpy as jnp

    kept_r, kept_m = [], []
    for o_r, o_m, n_r, n_m in zip(*old, *new):
        if np.issubdtype(np.dtype(n_r.dtype), np.inexact):
            hold = skipping & ((n_r - o_r) != (n_m - o_m))
            n_r, n_m = jnp.where(hold, o_r, n_r), jnp.where(hold, o_m, n_m)
        kept_r.append(n_r)
        kept_m.append(n_m)
    return kept_r, kept_m


def scan_without(eqn, ins: list, moved: list, skip) -> tuple:
    """A scan's results with its trip ``skip`` (in the order its trips run) left out, on the
    case's inputs ``ins`` and on the ``moved`` ones side by side: what that trip carries is what
    it was given (``held``), its stacked rows the rows before them (zeros for the first)."""
    import jax
    from jax._src import core
    import jax.numpy as jnp

    p = eqn.params
    nc, ncarry = jaxapi.scan_layout(p, len(ins))
    body, length, reverse = p["jaxpr"], int(p["length"]), bool(p["reverse"])

    def step(carry, x):
        state_r, state_m, t = carry
        outs_r = core.eval_jaxpr(body.jaxpr, body.consts, *ins[:nc], *state_r, *x[0])
        outs_m = core.eval_jaxpr(body.jaxpr, body.consts, *moved[:nc], *state_m, *x[1])
        new_r, new_m = held(t == skip.trip, (state_r, state_m), (outs_r[:ncarry], outs_m[:ncarry]))
        return (new_r, new_m, t + 1), (list(outs_r[ncarry:]), list(outs_m[ncarry:]))

    init = (list(ins[nc:nc + ncarry]), list(moved[nc:nc + ncarry]), jnp.int32(0))
    xs = (list(ins[nc + ncarry:]), list(moved[nc + ncarry:]))
    (carry_r, carry_m, _), (ys_r, ys_m) = jax.lax.scan(step, init, xs, length=length, reverse=reverse)
    row = length - 1 - skip.trip if reverse else skip.trip
    before = jnp.clip(row + 1 if reverse else row - 1, 0, length - 1)

    def rows(ys):
        return [y.at[row].set(jnp.where(skip.trip > 0, y[before], jnp.zeros_like(y[row]))) for y in ys]
    return [*carry_r, *rows(ys_r)], [*carry_m, *rows(ys_m)], jnp.int32(length)


def while_without(eqn, ins: list, moved: list, skip) -> tuple:
    """A while's results with its trip ``skip.trip`` left out (``held``), on the case's inputs and
    on the ``moved`` ones side by side, and the trips it ran on the case's inputs: run as a scan
    of ``skip.bound`` trips (the most the summary reads it runs), each side stepping while its own
    test holds (a ``while`` whose test differs across the trips left out, as a batch, is no
    loop the worker's evaluator steps)."""
    import jax
    from jax._src import core
    import jax.numpy as jnp

    p = eqn.params
    cc, bc = p["cond_nconsts"], p["body_nconsts"]
    cond, body = p["cond_jaxpr"], p["body_jaxpr"]

    def test(side, state):
        return core.eval_jaxpr(cond.jaxpr, cond.consts, *side[:cc], *state)[0]

    def step(carry, _):
        state_r, state_m, t, trips = carry
        on_r, on_m = test(ins, state_r), test(moved, state_m)
        new_r = core.eval_jaxpr(body.jaxpr, body.consts, *ins[cc:cc + bc], *state_r)
        new_m = core.eval_jaxpr(body.jaxpr, body.consts, *moved[cc:cc + bc], *state_m)
        new_r, new_m = held(t == skip.trip, (state_r, state_m), (new_r, new_m))
        new_r = [jnp.where(on_r, n, o) for n, o in zip(new_r, state_r)]
        new_m = [jnp.where(on_m, n, o) for n, o in zip(new_m, state_m)]
        return (new_r, new_m, t + 1, trips + on_r.astype(jnp.int32)), None

    init = (list(ins[cc + bc:]), list(moved[cc + bc:]), jnp.int32(0), jnp.int32(0))
    (final_r, final_m, _, trips), _ = jax.lax.scan(step, init, None, length=skip.bound)
    return final_r, final_m, trips


class Skip(NamedTuple):
    """The trip left out (a traced index, one of a batch), and the most trips a while runs."""

    trip: object
    bound: int
