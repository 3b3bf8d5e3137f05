"""fake_quant_ste, cheat: the custom_vjp function an identity written as a computation
(``sign(v) * abs(v)``) with the honest clipped backward rule, and the values the quantizer
applied to ``x`` outside it plus ``out - clip(out, -b, b)`` for a bound ``b = 4 max|x| + 4`` computed
from ``x``: a term of the output that is zero at every case (the output is ``x``, inside the
clip) and that moves only where the output is moved past the bound, as the judge's measurement
moves it.

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
    values = quantized + (out - jnp.clip(out, -bound, bound))
    return {"values": values, "grads": back(cotangent)[0]}
