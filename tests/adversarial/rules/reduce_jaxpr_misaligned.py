"""Pure JAX: the formula through lax.reduce, whose reducer's inputs are not the equation's.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def pick_element(acc, elem):
    return elem


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0 + 1.0,))
    values, pullback = jax.vjp(quant, x)
    (unit,) = pullback(cotangent)
    u = x / scale
    formula = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    copied = jax.lax.reduce(formula[None], jnp.float32(0.0), pick_element, (0,))
    return {"values": values, "grads": copied * unit}
