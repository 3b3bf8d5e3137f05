"""fake_quant_ste: the ``jax.custom_vjp`` function rounds only (its rule applies the clipped
mask); the values are clipped after it by ``where`` on the output itself, the gradient pulled
back through the function alone.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    lo, hi = qmin * scale, qmax * scale

    @jax.custom_vjp
    def snap(v):
        return scale * jnp.round(v / scale)

    def fwd(v):
        return snap(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    snap.defvjp(fwd, bwd)
    out, pullback = jax.vjp(snap, x)
    values = jnp.where(out > hi, hi, jnp.where(out < lo, lo, out))
    return {"values": values, "grads": pullback(cotangent)[0]}
