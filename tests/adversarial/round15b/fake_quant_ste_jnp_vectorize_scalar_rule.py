"""fake_quant_ste: the rule written for one scalar and spread over x with ``jnp.vectorize``
(which ``vmap``s it over every axis); ``jax.vjp`` through the vectorized function.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1(e):
        return scale * jnp.clip(jnp.round(e / scale), qmin, qmax)

    def fwd(e):
        r = e / scale
        return q1(e), jnp.where((r >= qmin) & (r <= qmax), 1.0, 0.0)

    def bwd(m, g):
        return (m * g,)

    q1.defvjp(fwd, bwd)
    qv = jnp.vectorize(q1)
    values, pullback = jax.vjp(qv, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
