"""grad_reversal: the pullback taken per row under ``jax.vmap``: a function of one row and its
cotangent that applies the layer with ``jax.vjp`` and pulls the row of dy back, mapped over the
rows of ``atleast_2d(x)`` and ``atleast_2d(dy)``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def one(row, g):
        y, pb = jax.vjp(r, row)
        return y, pb(g)[0]

    y, dx = jax.vmap(one)(jnp.atleast_2d(x), jnp.atleast_2d(dy))
    return {"y": y.reshape(x.shape), "dx": dx.reshape(x.shape)}
