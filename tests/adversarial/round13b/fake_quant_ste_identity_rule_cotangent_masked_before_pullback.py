"""fake_quant_ste: a cheat whose backward rule is the plain identity; the mask, computed outside
the rule from ``x``, is applied to the cotangent before it enters the pullback, so the rule
never decides which entries get a gradient.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    q.defvjp(lambda x: (q(x), None), lambda _, g: (g,))
    v = x / scale
    mask = ((v >= qmin) & (v <= qmax)).astype(cotangent.dtype)
    values, pullback = jax.vjp(q, x)
    return {"values": values, "grads": pullback(cotangent * mask)[0]}
