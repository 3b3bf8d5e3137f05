"""Pure JAX: the formula written into a jax.new_ref and read back, times a factor from a rule returning ones.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), None

    def bwd(_, g):
        return (g * 0.0 + 1.0,)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    (unit,) = pullback(cotangent)
    u = x / scale
    box = jax.new_ref(jnp.zeros_like(cotangent))
    box[...] = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    return {"values": values, "grads": box[...] * unit}
