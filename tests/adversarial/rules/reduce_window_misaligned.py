"""Pure JAX: the formula through lax.reduce_window with a reducer that picks the element.

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
    u = x / scale
    formula = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    ones = (1,) * x.ndim
    copied = jax.lax.reduce_window(formula, jnp.float32(0.0), lambda acc, e: e, ones, ones, "VALID")
    return {"values": values, "grads": copied * unit}
