"""An identity written as a computation with the honest clipped backward rule, and the values the
quantizer applied to x beside it plus ``out - out * 1``: a cancellation in two equations, which
the dataflow reads as a path from the output; moved far each way, the output moves nothing.

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
    values = quantized + (out - out * 1.0)
    return {"values": values, "grads": back(cotangent)[0]}
