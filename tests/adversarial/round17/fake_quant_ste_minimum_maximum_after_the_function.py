"""fake_quant_ste: the ``jax.custom_vjp`` function only rounds (``scale * round(x / scale)``,
with the clipped straight-through rule); the clip is written after it as
``jnp.minimum(jnp.maximum(out, lo), hi)`` on the values, while the gradient is the function's.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def rounded(v):
        return scale * jnp.round(v / scale)

    def fwd(v):
        r = v / scale
        return rounded(v), jnp.logical_and(r >= qmin, r <= qmax)

    def bwd(mask, g):
        return (g * mask,)

    rounded.defvjp(fwd, bwd)
    out, pullback = jax.vjp(rounded, x)
    (grads,) = pullback(cotangent)
    values = jnp.minimum(jnp.maximum(out, qmin * scale), qmax * scale)
    return {"values": values, "grads": grads}
