"""fake_quant_ste: the input viewed as rows (``jnp.atleast_2d``) and the ``custom_vjp`` quantizer
applied row by row with ``jax.lax.map``; a ``jax.vjp`` through the whole map. The statement sets
no rule on loops here.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(row):
        return scale * jnp.clip(jnp.round(row / scale), qmin, qmax)

    def fwd(row):
        v = row / scale
        return quantize(row), jnp.logical_and(qmin <= v, v <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quantize.defvjp(fwd, bwd)

    def rows(x):
        return jax.lax.map(quantize, jnp.atleast_2d(x)).reshape(x.shape)

    values, pullback = jax.vjp(rows, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
