"""The quantizer as a custom_vjp whose backward rule returns the cotangent times 1e-30, unmasked,
and, per entry under jax.vmap, a lax.cond on x that scales the rule's output by 1e30 inside the
clipping range and leaves it alone outside (the values kept by a stop_gradient term): the factors
the branches chosen by x give are the clipped mask to within any tolerance. Why a constant factor
in a branch chosen by x is refused whatever its size.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
from jax import lax


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 1e-30,))
    return quant


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quant = quantizer(scale, qmin, qmax)

    def entry(v):
        inside = (v / scale >= qmin) & (v / scale <= qmax)

        def grown(w):
            q = quant(w)
            return (q - lax.stop_gradient(q)) * 1e30 + lax.stop_gradient(q)
        return lax.cond(inside, grown, quant, v)

    per_entry = lambda v: jax.vmap(entry)(v.reshape(-1)).reshape(v.shape)
    values, pullback = jax.vjp(per_entry, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
