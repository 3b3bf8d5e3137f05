"""fake_quant_ste: an identity custom_vjp applied to x, the rounding computed from its output
outside it, and the function applied again to the rounded values: what comes out of the second
application was computed from the first one's output, outside the function, not by it.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    r = x / scale
    m = ((r >= qmin) & (r <= qmax)).astype(jnp.float32)

    @jax.custom_vjp
    def gate(t):
        return t

    gate.defvjp(lambda t: (t, None), lambda _, g: (g * m,))
    y, pull = jax.vjp(gate, x)
    values = gate(scale * jnp.clip(jnp.round(y / scale), qmin, qmax))
    return {"values": values, "grads": pull(cotangent)[0]}
