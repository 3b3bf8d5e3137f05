"""A value made from g inside one run of a backward rule is kept in a list, masked outside, and
then pulled back through a second rule that does nothing: each piece passes through a rule, but
the mask is applied between them, outside both.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    box = []

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def bwd(_, g):
        box.append(g * 1.0)
        return (g,)

    quant.defvjp(lambda v: (quant(v), None), bwd)
    values, pullback = jax.vjp(quant, x)
    pullback(cotangent)
    u = x / scale
    masked = jnp.where((u >= qmin) & (u <= qmax), box[0], 0.0)
    (grads,) = pullback(masked)
    return {"values": values, "grads": grads}
