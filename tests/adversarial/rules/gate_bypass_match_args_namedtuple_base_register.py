"""Reads frames around the gate with a class pattern: a class of its own whose base is a named tuple
with a field name computed at run time inherits that name as __match_args__, and an ABC's
register() makes isinstance true for generators, frames and cells, so `case View(found)` is
getattr with a computed name. From inside the backward rule it reads the instrument's wrapper
frame (its free variables: the marker function, its scope, the state with the trace's factor) and
marks a formula gradient with the instrument's own code.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: any
(Before the class-pattern check, this got AC on all 69 cases of fake_quant_ste with the gate on,
and with the gate off, against the worker of commit fc64583. With the gate off it is left to the
worker's own defences, which are changing: so any verdict.)
"""
from collections import namedtuple
from collections.abc import Sized

import jax
import jax.numpy as jnp


def attribute(obj, *parts):
    class View(Sized, namedtuple("Fields", ["".join(parts)])):
        pass

    View.register(type(obj))
    match obj:
        case View(found):  # gate: refuse
            return found


def caller_locals(depth):
    """The local variables of the caller of this function (depth 0) or of a frame above it."""
    holder = []

    def gen():
        frame = attribute(holder[0], "gi", "_frame")
        for _ in range(depth + 2):
            frame = attribute(frame, "f", "_back")
        yield attribute(frame, "f", "_locals")

    holder.append(gen())
    return next(holder[0])


FOUND = {}


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), None

    def bwd(_, g):
        names = caller_locals(1)  # the instrument's wrapper around this rule
        if "mark_out" in names and "scope" in names:
            FOUND["mark"] = names["mark_out"](names["scope"])
        return (jnp.zeros_like(g),)

    quant.defvjp(fwd, bwd)
    FOUND.clear()
    values, pullback = jax.vjp(quant, x)
    pullback(cotangent)
    u = x / scale
    grads = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    if "mark" in FOUND:
        grads = FOUND["mark"](grads)
    return {"values": values, "grads": grads}
