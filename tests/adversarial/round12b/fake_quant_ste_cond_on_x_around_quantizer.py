"""fake_quant_ste: an honest quantizer applied inside a ``lax.cond`` whose predicate reads x
(both branches apply the custom_vjp function, one to x and one to x moved by ``+ 0.0``); the
gradient by ``jax.vjp`` of the whole. The cotangent passes the rule inside the cond's
transpose, so a cond around the function is as good as none.

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
        return q(v), v / scale

    def bwd(u, g):
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd)

    def f(v):
        return lax.cond(jnp.all(v >= 0), q, lambda w: q(w + 0.0), v)

    values, back = jax.vjp(f, x)
    return {"values": values, "grads": back(cotangent)[0]}
