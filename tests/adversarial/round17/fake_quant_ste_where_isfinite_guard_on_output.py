"""fake_quant_ste: the output guarded by ``jnp.where(jnp.isfinite(out), out, 0.0)`` (a habit
from code that quantizes activations which can overflow), the gradient from ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quantize(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    out, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    values = jnp.where(jnp.isfinite(out), out, 0.0)
    return {"values": values, "grads": grads}
