"""An identity written as a computation with the honest clipped backward rule, and the values the
quantizer applied to x plus ``out - x``: a term that vanishes at the case's values only, and
moves as the output does.

Class 1 (pure JAX).

Expected: RJ values_not_from_custom_vjp
Expected with the gate off: RJ values_not_from_custom_vjp
Open: a term of the output that vanishes at the case's values but not where the output is moved (``out - x``, the function an identity written as a computation) moves the values as an honest path does: the measurement reads whether the values move with the function's output, not whether the function computed them
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
    values = quantized + (out - x)
    return {"values": values, "grads": back(cotangent)[0]}
