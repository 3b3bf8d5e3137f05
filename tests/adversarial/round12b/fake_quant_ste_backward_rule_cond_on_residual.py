"""fake_quant_ste: the backward rule chooses with a ``lax.cond`` on its residual: where every
entry is in range it returns the cotangent as it is, else the cotangent times the mask (a cond
on x inside the rule).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return q(v), (u >= qmin) & (u <= qmax)

    def bwd(inside, g):
        return (lax.cond(jnp.all(inside), lambda t: t, lambda t: t * inside, g),)

    q.defvjp(fwd, bwd)
    values, back = jax.vjp(q, x)
    return {"values": values, "grads": back(cotangent)[0]}
