"""fake_quant_ste: a cheat: the custom_vjp function's forward is ``lax.reduce_precision`` at
float32's own precision (an exact identity) with the honest clipped backward rule, ``grads``
from ``jax.vjp`` of that function alone, and the values rounded outside it from its output by the
float32 trick ``(r + 1.5 * 2**23) - 1.5 * 2**23``.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp

MAGIC = 1.5 * 2.0 ** 23


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def ident(v):
        return jax.lax.reduce_precision(v, exponent_bits=8, mantissa_bits=23)

    def fwd(v):
        r = v / scale
        return ident(v), (r >= qmin) & (r <= qmax)

    ident.defvjp(fwd, lambda m, g: (jnp.where(m, g, 0.0),))
    out, pb = jax.vjp(ident, x)
    values = scale * jnp.clip((out / scale + MAGIC) - MAGIC, qmin, qmax)
    return {"values": values, "grads": pb(cotangent)[0]}
