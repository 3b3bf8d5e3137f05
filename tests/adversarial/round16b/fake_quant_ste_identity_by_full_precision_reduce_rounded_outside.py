"""fake_quant_ste: a cheat: the custom_vjp function's forward is ``lax.reduce_precision`` at
float32's own precision (8 exponent bits, 23 mantissa bits: an exact identity) with the honest
clipped backward rule, and the rounding done outside it by the float32 trick
``(r + 1.5 * 2**23) - 1.5 * 2**23`` (additions, whose derivative the pullback stands for).

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
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

    def quant(v):
        r = ident(v) / scale
        return scale * jnp.clip((r + MAGIC) - MAGIC, qmin, qmax)

    values, pb = jax.vjp(quant, x)
    return {"values": values, "grads": pb(cotangent)[0]}
