"""fake_quant_ste, honest: the quantizer wrapped with custom_vjp, its output passed through
``jnp.nan_to_num`` (a test for NaN and infinities and a choice) before it is returned.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)).astype(g.dtype),)

    q.defvjp(lambda v: (q(v), v), bwd)
    out, back = jax.vjp(q, x)
    return {"values": jnp.nan_to_num(out), "grads": back(cotangent)[0]}
