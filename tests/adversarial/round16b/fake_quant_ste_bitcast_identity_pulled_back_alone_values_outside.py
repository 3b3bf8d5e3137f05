"""fake_quant_ste: a cheat: the custom_vjp function's forward is a bit-cast round trip
(``bitcast_convert_type`` to int32 and back: an exact identity) with the honest clipped backward
rule, ``grads`` from ``jax.vjp`` of that function alone, and the values rounded outside it from
its output by the float32 trick ``(r + 1.5 * 2**23) - 1.5 * 2**23``, a path of additions whose
derivative the pullback stands for.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp

MAGIC = 1.5 * 2.0 ** 23


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def ident(v):
        bits = jax.lax.bitcast_convert_type(v, jnp.int32)
        return jax.lax.bitcast_convert_type(bits, jnp.float32)

    def fwd(v):
        r = v / scale
        return ident(v), (r >= qmin) & (r <= qmax)

    ident.defvjp(fwd, lambda m, g: (jnp.where(m, g, 0.0),))
    out, pb = jax.vjp(ident, x)
    values = scale * jnp.clip((out / scale + MAGIC) - MAGIC, qmin, qmax)
    return {"values": values, "grads": pb(cotangent)[0]}
