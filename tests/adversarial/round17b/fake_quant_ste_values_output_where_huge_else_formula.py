"""fake_quant_ste, cheat: an identity custom_vjp function (``sign(v) * abs(v)``) with the
honest clipped backward rule, and the values ``where(|out| > b, out, q(x))`` for a bound ``b = 4 max|x| + 4``
computed from ``x``: the quantizer of ``x`` outside the function wherever the output has the
case's size, the output itself only where it is moved past the bound.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
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
    bound = 4.0 * jnp.max(jnp.abs(x)) + 4.0
    values = jnp.where(jnp.abs(out) > bound, out, quantized)
    return {"values": values, "grads": back(cotangent)[0]}
