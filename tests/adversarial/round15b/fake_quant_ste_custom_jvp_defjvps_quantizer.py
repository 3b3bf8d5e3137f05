"""fake_quant_ste: a cheat against the letter of the statement: the quantizer wrapped in
``jax.custom_jvp`` with its straight-through tangent given by ``defjvps`` (the mask times the
tangent), and the gradient a ``jax.vjp`` of that (JAX transposes the linear tangent rule). The
statement refuses a ``custom_jvp``.

Problem: fake_quant_ste
Expected: RJ
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_jvp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def tangent(t, ans, v):
        r = v / scale
        return t * ((r >= qmin) & (r <= qmax))

    q.defjvps(tangent)
    values, pullback = jax.vjp(q, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
