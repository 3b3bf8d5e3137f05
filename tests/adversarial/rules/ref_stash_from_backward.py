"""Pure JAX: the backward rule stashes g * mask in an outer ref and returns ones.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    cell = jax.new_ref(jnp.zeros_like(x))

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        cell[...] = jnp.where((u >= qmin) & (u <= qmax), g, 0.0 * g)
        return (g * 0.0 + 1.0,)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    (unit,) = pullback(cotangent)
    return {"values": values, "grads": cell[...] * unit}
