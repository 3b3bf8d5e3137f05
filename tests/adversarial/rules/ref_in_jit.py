"""Pure JAX: the formula written into a ref inside a jit-compiled function.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


@jax.jit
def write(cell, c, m):
    cell[...] = c * m


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0 + 1.0,))
    values, pullback = jax.vjp(quant, x)
    (unit,) = pullback(cotangent)
    u = x / scale
    cell = jax.new_ref(jnp.zeros_like(x))
    write(cell, cotangent, ((u >= qmin) & (u <= qmax)).astype(x.dtype))
    return {"values": values, "grads": cell[...] * unit}
