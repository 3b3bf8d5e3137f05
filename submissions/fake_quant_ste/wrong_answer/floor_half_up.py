"""Rounds with jnp.floor(x / scale + 0.5) (round half up) instead of round half
to even.  The custom_vjp structure and the backward rule are correct.

Expected verdict: wrong_answer -- ties round up, e.g. x/scale = 2.5 gives 3
instead of 2 (first example: x=1.25, scale=0.5 -> 1.5, expected 1.0), and
negative ties like -1.5 give -1 instead of -2.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.floor(v / scale + 0.5), qmin, qmax)

    def quant_fwd(v):
        return quant(v), v

    def quant_bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
