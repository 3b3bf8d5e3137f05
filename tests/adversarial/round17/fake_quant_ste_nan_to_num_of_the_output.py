"""fake_quant_ste: defensive ``jnp.nan_to_num`` over the ``jax.custom_vjp`` output and over
the gradient (both finite here, so no-ops).

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
        return quantize(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((qmin <= r) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    out, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": jnp.nan_to_num(out), "grads": jnp.nan_to_num(grads)}
