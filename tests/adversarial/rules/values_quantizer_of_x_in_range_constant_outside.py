"""An identity written as a computation with the honest clipped backward rule, the values the
quantizer of x plus ``out - out`` inside the clipping range and the clipped constants outside it,
chosen by a `where` on the level of x: the entries outside the range may stay where they are
when the output moves (the rule passes no cotangent there), but those inside must move, and
stay.

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
    r = jnp.round(x / scale)
    inside = scale * r + (out - out)
    values = jnp.where(r > qmax, scale * qmax, jnp.where(r < qmin, scale * qmin, inside))
    return {"values": values, "grads": back(cotangent)[0]}
