"""fake_quant_ste: the gradient as ``jax.grad`` of ``sum(quantize(x) * cotangent)``; the values
from a second call of the same ``jax.custom_vjp`` function.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        r = v / scale
        return quantize(v), ((r >= qmin) & (r <= qmax)).astype(v.dtype)

    def bwd(mask, g):
        return (mask * g,)

    quantize.defvjp(fwd, bwd)
    grads = jax.grad(lambda v: jnp.sum(quantize(v) * cotangent))(x)
    return {"values": quantize(x), "grads": grads}
