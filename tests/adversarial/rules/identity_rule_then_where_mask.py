"""The cotangent pulled back through a rule that does nothing (g unchanged), then masked by
jnp.where on x outside any rule.

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

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g,))
    values, pullback = jax.vjp(quant, x)
    (passed,) = pullback(cotangent)
    u = x / scale
    return {"values": values, "grads": jnp.where((u >= qmin) & (u <= qmax), passed, 0.0)}
