"""Pure JAX: the formula written into a ref entry by entry inside a fori_loop.

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
    flat_x, flat_c = x.reshape(-1), cotangent.reshape(-1)
    cell = jax.new_ref(jnp.zeros_like(flat_c))

    def body(i, carry):
        u = flat_x[i] / scale
        cell[i] = jnp.where((u >= qmin) & (u <= qmax), flat_c[i], 0.0 * flat_c[i])
        return carry

    jax.lax.fori_loop(0, flat_c.shape[0], body, 0)
    return {"values": values, "grads": cell[...].reshape(x.shape) * unit}
