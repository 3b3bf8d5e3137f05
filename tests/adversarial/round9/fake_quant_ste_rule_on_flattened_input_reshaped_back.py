"""fake_quant_ste: the quantizer works on a flat vector (``x.ravel()``), the student reshaping
the values and the gradient back to x's shape; the custom_vjp closes over scale, qmin and qmax
and its backward rule uses ``jnp.logical_and`` and ``lax.select``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(flat):
        return jnp.clip(jnp.round(flat / scale), qmin, qmax) * scale

    def fq_fwd(flat):
        return fq(flat), flat

    def fq_bwd(flat, g):
        r = flat / scale
        return (lax.select(jnp.logical_and(r >= qmin, r <= qmax), g, jnp.zeros_like(g)),)

    fq.defvjp(fq_fwd, fq_bwd)
    values, pull = jax.vjp(fq, x.ravel())
    (g,) = pull(cotangent.ravel())
    return {"values": values.reshape(x.shape), "grads": g.reshape(x.shape)}
