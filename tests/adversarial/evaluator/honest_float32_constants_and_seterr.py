"""Honest: NumPy float32 and int32 constants everywhere (scalars, 0-d and 1-d arrays), with
NumPy's floating-point errors set to raise from import on and a divide by zero kept in the
program (inf where u is 0, compared with itself).

The judge's evaluation computes in NumPy with its own error state, and casts no constant of
the program outside it, so nothing raises there that XLA would not.

Problem: fake_quant_ste
Expected: AC ok
"""
import jax
import jax.numpy as jnp
import numpy as np

np.seterr(all="raise")
HALF = np.float32(0.5)
ONE = np.ones((), dtype=np.float32)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    step = np.float32(scale)
    low, high = np.array([qmin], dtype=np.int32), np.int32(qmax)

    @jax.custom_vjp
    def quant(v):
        return step * jnp.clip(jnp.round(v / step), low[0], high)

    def quant_fwd(v):
        u = v / step
        inverse = ONE / u  # inf where u is 0, which equals itself: the last term is all True
        return quant(v), (u >= low[0]) & (u <= high) & (inverse == inverse)

    def quant_bwd(mask, g):
        return (jnp.where(mask, g * ONE, HALF * 0),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
