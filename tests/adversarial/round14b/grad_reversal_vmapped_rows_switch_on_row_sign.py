"""grad_reversal: ``jax.vmap`` over the rows (``jnp.atleast_2d``) of a ``lax.switch`` on the sign
of the row's first entry, whose branches apply the same reversal layer to the row as it is,
reversed and reversed back, or plus a literal zero: under ``vmap`` the switch becomes a
``select_n`` on x of the three branches' outputs, each a rule's.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    branches = [r, lambda v: r(v[::-1])[::-1], lambda v: r(v + 0.0)]

    def row(v):
        return lax.switch((jnp.sign(v[0]) + 1).astype(jnp.int32), branches, v)

    def layer(x):
        return jax.vmap(row)(jnp.atleast_2d(x)).reshape(x.shape)

    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
