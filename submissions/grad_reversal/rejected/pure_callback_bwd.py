"""An honest custom_vjp structure whose backward rule computes -lam * g in NumPy through
jax.pure_callback. Numerically correct, and the cotangent does pass through the rule.

Expected verdict: rejected (callbacks are not allowed).
"""
import jax
import numpy as np


def grad_reverse(x, lam, dy):
    def np_reverse(g):
        return (-lam * np.asarray(g, np.float32)).astype(np.float32)

    @jax.custom_vjp
    def rev(v):
        return v

    def rev_fwd(v):
        return v, None

    def rev_bwd(_, g):
        return (jax.pure_callback(np_reverse, jax.ShapeDtypeStruct(g.shape, g.dtype), g),)

    rev.defvjp(rev_fwd, rev_bwd)
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
