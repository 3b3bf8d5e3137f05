"""fake_quant_ste: a cheat whose backward rule is chosen by data: it applies the mask when the
sum of ``x`` is negative and passes the cotangent through otherwise, so it is the clipped
estimator on some inputs and the plain one on the others.

Problem: fake_quant_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        v = x / scale
        return q(x), ((v >= qmin) & (v <= qmax), jnp.sum(x) < 0)

    def bwd(res, g):
        inside, negative = res
        return (jnp.where(negative, g * inside, g),)

    q.defvjp(fwd, bwd)
    values, pullback = jax.vjp(q, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
