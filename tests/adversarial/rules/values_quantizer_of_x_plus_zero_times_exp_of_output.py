"""An identity written as a computation with the honest clipped backward rule, and the values the
quantizer applied to x plus ``0 * exp(out)``: zero at the case, NaN where the output is moved far
up (a NaN is no move).

Class 1 (pure JAX).

Expected: RJ values_not_from_custom_vjp
Expected with the gate off: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def same(v):
        return jnp.sign(v) * jnp.abs(v)

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    same.defvjp(lambda v: (same(v), v), bwd)
    out, back = jax.vjp(same, x)
    quantized = scale * jnp.clip(jnp.round(x / scale), qmin, qmax)
    values = quantized + 0.0 * jnp.exp(out)
    return {"values": values, "grads": back(cotangent)[0]}
