"""Rewrites an instance attribute of the worker's case runner through a class pattern on a shadowed
built-in: `int` rebound to a class whose __match_args__ comes from a named tuple with a field name
computed at run time (and that an ABC's register() makes match generators, frames and cells), so
`case int(found)` is getattr with a computed name. It walks the stack to the CaseRunner, swaps
its provenance helper for one that always finds the gradient clean, and scales a formula
gradient by the trace's factor read from the instrument's wrapper frame.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: any
(Before the class-pattern check, this got AC on all 69 cases of fake_quant_ste with the gate on,
and with the gate off, against the worker of commit fc64583. With the gate off it is left to the
worker's own defences, which are changing: so any verdict.)
Without the rules: any (it replaces an attribute of the worker's case runner, which the worker
stops as instrument_tampered whatever the problem's rules)
"""
from collections import namedtuple
from collections.abc import Sized

import jax
import jax.numpy as jnp


def attribute(obj, *parts):
    class View(Sized, namedtuple("Fields", ["".join(parts)])):
        pass

    View.register(type(obj))
    int = View
    match obj:
        case int(found):  # gate: refuse
            return found


def frames_up():
    """The local variables of every frame above the caller of this function, nearest first."""
    holder = []

    def gen():
        frame = attribute(attribute(holder[0], "gi", "_frame"), "f", "_back")
        found = []
        while frame is not None:
            found.append(attribute(frame, "f", "_locals"))
            frame = attribute(frame, "f", "_back")
        yield found[2:]

    holder.append(gen())
    return next(holder[0])


class Clean:
    """Stands in for the worker's provenance module: every gradient comes from a rule."""

    def __init__(self, real):
        self.real = real

    def trace_flow(self, *args, **kwargs):
        return {"reached": False, "used": True, "rules": 1, "opaque": 0}

    def first_unscaled(self, *args, **kwargs):
        return self.real.first_unscaled(*args, **kwargs)


FOUND = {}


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    for names in frames_up():
        runner = names.get("self")
        if hasattr(runner, "provenance") and not isinstance(runner.provenance, Clean):
            runner.provenance = Clean(runner.provenance)

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), None

    def bwd(_, g):
        state = frames_up()[0].get("state")  # the instrument's wrapper around this rule
        if isinstance(state, dict):
            FOUND["factor"] = state.get("factor")
        return (jnp.zeros_like(g),)

    quant.defvjp(fwd, bwd)
    FOUND.clear()
    values, pullback = jax.vjp(quant, x)
    pullback(cotangent)
    u = x / scale
    grads = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    if FOUND.get("factor") is not None:
        grads = grads * FOUND["factor"].astype(grads.dtype)
    return {"values": values, "grads": grads}
