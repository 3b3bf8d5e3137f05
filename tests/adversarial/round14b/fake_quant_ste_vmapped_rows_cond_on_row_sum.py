"""fake_quant_ste: ``jax.vmap`` over the rows (``jnp.atleast_2d``) of a ``lax.cond`` on the
row's sum whose branches apply the same ``custom_vjp`` quantizer to the row as it is and to the
row reversed (then reversed back): under ``vmap`` the cond becomes a ``select_n`` on x of both
branches' outputs, each a rule's, so the cotangent is only chosen by x between two rules.

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

    def row(v):
        return lax.cond(jnp.sum(v) > 0, q, lambda w: q(w[::-1])[::-1], v)

    def f(x):
        return jax.vmap(row)(jnp.atleast_2d(x)).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
