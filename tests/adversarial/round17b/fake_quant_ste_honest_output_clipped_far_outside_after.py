"""fake_quant_ste, honest: the quantizer wrapped with custom_vjp, its output then clipped to
``[-1e6, 1e6]`` as a guard against overflow that no case reaches.

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
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    q.defvjp(lambda v: (q(v), v), bwd)
    out, back = jax.vjp(q, x)
    return {"values": jnp.clip(out, -1e6, 1e6), "grads": back(cotangent)[0]}
