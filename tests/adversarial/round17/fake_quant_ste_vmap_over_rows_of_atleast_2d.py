"""fake_quant_ste: the ``jax.custom_vjp`` quantizer applied per row by ``jax.vmap`` over
``jnp.atleast_2d(x)``, the pullback of the mapped function reshaped back to ``x``'s shape.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def row_quant(row):
        return scale * jnp.clip(jnp.round(row / scale), qmin, qmax)

    def fwd(row):
        r = row / scale
        return row_quant(row), (r >= qmin) & (r <= qmax)

    def bwd(keep, g):
        return (jnp.where(keep, g, jnp.zeros_like(g)),)

    row_quant.defvjp(fwd, bwd)

    def per_row(v):
        return jax.vmap(row_quant)(jnp.atleast_2d(v)).reshape(v.shape)

    values, pullback = jax.vjp(per_row, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
