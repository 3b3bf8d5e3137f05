"""fake_quant_ste: an honest quantizer inside a ``lax.cond`` whose predicate reads x, one branch
applying it to x as it is and the other to x flattened and reshaped back: the branches only move
the cotangent outside the rule, so the cond is as good as none.

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

    q.defvjp(fwd, lambda inside, g: (jnp.where(inside, g, 0.0),))

    def f(v):
        return lax.cond(jnp.sum(v) > 0, q, lambda w: q(w.reshape(-1)).reshape(w.shape), v)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
