"""fake_quant_ste: the quantizer takes the scale as a second (array) argument; its backward
rule returns ``None`` for it (no cotangent for the scale) and the mask times g for x; the
pullback is taken with respect to x alone through a ``functools.partial``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v, s):
        return s * jnp.clip(jnp.round(v / s), qmin, qmax)

    def fwd(v, s):
        return quantize(v, s), (v, s)

    def bwd(res, g):
        v, s = res
        r = v / s
        return g * ((r >= qmin) & (r <= qmax)), None

    quantize.defvjp(fwd, bwd)
    s = jnp.asarray(scale, jnp.float32)
    values, pullback = jax.vjp(partial(quantize, s=s), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
