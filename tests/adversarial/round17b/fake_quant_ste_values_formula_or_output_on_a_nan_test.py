"""fake_quant_ste, cheat: an identity custom_vjp function (``sign(v) * abs(v)``) with the
honest clipped backward rule, and the values the output where ``exp(out - b)`` overflows, for a
bound ``b = 4 max|x| + 4`` computed from ``x``, and the quantizer of ``x`` outside it everywhere
else: ``where(isfinite(exp(out - b)), q(x), out)``, which reads the output only through a test and a choice, and moves only where the
output is moved up.

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
    values = jnp.where(jnp.isfinite(jnp.exp(out - bound)), quantized, out)
    return {"values": values, "grads": back(cotangent)[0]}
