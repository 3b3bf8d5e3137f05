"""fake_quant_ste: ``jax.custom_vjp`` applied to a ``functools.partial`` of a module-level forward
function (scale and range bound as keywords), a bool residual computed under
``jax.named_scope``, and ``jnp.multiply`` with the mask cast by ``astype``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _forward(x, scale, qmin, qmax):
    with jax.named_scope("fake_quant"):
        return jnp.clip(jnp.round(x / scale), qmin, qmax) * scale


def _build(scale, qmin, qmax):
    q = jax.custom_vjp(functools.partial(_forward, scale=scale, qmin=qmin, qmax=qmax))

    def fwd(x):
        with jax.named_scope("ste_mask"):
            ratio = x / scale
            keep = jnp.logical_and(ratio >= qmin, ratio <= qmax)
        return _forward(x, scale, qmin, qmax), keep

    def bwd(keep, ct):
        return (jnp.multiply(ct, keep.astype(ct.dtype)),)

    q.defvjp(fwd, bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    q = _build(scale, qmin, qmax)
    values, vjp_fn = jax.vjp(q, x)
    return {"values": values, "grads": vjp_fn(cotangent)[0]}
