"""fake_quant_ste: the quantizer written for one scalar with ``jax.custom_vjp`` (the three
numbers ``nondiff_argnums``), ``jax.vmap``-ed over the flattened input and reshaped back; the
gradient a ``jax.vjp`` through the vmapped function.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quantize_one(x, scale, qmin, qmax):
    return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)


def _fwd(x, scale, qmin, qmax):
    v = x / scale
    return quantize_one(x, scale, qmin, qmax), (v >= qmin) & (v <= qmax)


def _bwd(scale, qmin, qmax, inside, g):
    return (jnp.where(inside, g, 0.0),)


quantize_one.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def flat(x):
        q = jax.vmap(lambda e: quantize_one(e, scale, qmin, qmax))(x.reshape(-1))
        return q.reshape(x.shape)

    values, pullback = jax.vjp(flat, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
