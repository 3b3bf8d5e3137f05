"""Pure JAX: the formula through jax.ref.set / jax.ref.get, with a dummy rule's factor.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0,))
    values, pullback = jax.vjp(quant, x)
    (zero,) = pullback(cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    cell = jax.new_ref(jnp.zeros_like(x))
    jax.ref.set(cell, ..., cotangent * mask)
    grads = jax.ref.get(cell, ...) * factor + zero
    return {"values": values, "grads": grads}
