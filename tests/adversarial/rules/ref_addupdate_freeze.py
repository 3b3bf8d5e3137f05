"""Pure JAX: the cotangent laundered through ref += and jax.ref.freeze, the mask applied after.

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

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0 + 1.0,))
    values, pullback = jax.vjp(quant, x)
    (unit,) = pullback(cotangent)
    cell = jax.new_ref(jnp.zeros_like(cotangent))
    cell[...] += cotangent
    clean = jax.ref.freeze(cell)
    u = x / scale
    grads = jnp.where((u >= qmin) & (u <= qmax), clean, 0.0 * clean) * unit
    return {"values": values, "grads": grads}
