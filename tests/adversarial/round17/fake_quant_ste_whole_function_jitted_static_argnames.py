"""fake_quant_ste: the whole entry point under ``jax.jit`` with ``static_argnames`` for the
scale and the range, the ``jax.custom_vjp`` quantizer defined inside.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("scale", "qmin", "qmax"))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quantize(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
