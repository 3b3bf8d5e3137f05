"""Forward pass forgets the clip: q(x) = scale * round(x / scale).  The
backward rule (inclusive clipped STE) is correct, so only values are wrong.

Expected verdict: wrong_answer -- any x/scale that rounds to a value outside
[qmin, qmax] is not saturated (first example: x=2.6, scale=0.5, qmax=3 -> 2.5, expected
1.5; x=-3.0 -> -3.0, expected -2.0).
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.round(v / scale)

    def quant_fwd(v):
        return quant(v), v / scale

    def quant_bwd(u, g):
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
