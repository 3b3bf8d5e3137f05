"""fake_quant_ste, cheat: the identity written as a computation with the honest clipped backward,
and the values the quantizer applied to x beside it plus ``out - out``: the values reach the
rule's output along a path the pullback follows (a sum, a difference), whose derivative cancels.
The dataflow reads the path; the values evaluated again with every custom_vjp function's output
moved far up and far down stay where they were, so they are not computed from that output
(``judge.worker.shift``).

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

    def fwd(v):
        return same(v), v

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    same.defvjp(fwd, bwd)
    out, back = jax.vjp(same, x)
    values = scale * jnp.clip(jnp.round(x / scale), qmin, qmax) + (out - out)
    return {"values": values, "grads": back(cotangent)[0]}
