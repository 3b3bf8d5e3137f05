"""A functools.lru_cache'd factory, so the same custom_vjp object serves every case with equal parameters."""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def q_fwd(v):
        return q(v), v

    def q_bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    q.defvjp(q_fwd, q_bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
