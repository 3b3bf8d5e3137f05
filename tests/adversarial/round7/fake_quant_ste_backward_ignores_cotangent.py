"""fake_quant_ste: a backward rule that returns the mask whatever cotangent it gets, its pullback
multiplied by the cotangent outside.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    def fwd(t):
        r = t / scale
        return q(t), ((r >= qmin) & (r <= qmax)).astype(t.dtype)

    def bwd(mask, g):
        return (mask * jnp.ones_like(g),)  # the mask itself, whatever the cotangent

    q.defvjp(fwd, bwd)
    y, pull = jax.vjp(q, x)
    return {"values": y, "grads": pull(cotangent)[0] * cotangent}
