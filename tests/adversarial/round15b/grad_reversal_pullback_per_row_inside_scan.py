"""grad_reversal: a ``jax.lax.scan`` over the rows of x and of dy together, each step applying
the layer to its row and pulling that row of dy back through it with ``jax.vjp``: the rule runs
inside the scan's body.

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

    def step(c, rows):
        row, g = rows
        y, pb = jax.vjp(r, row)
        return c, (y, pb(g)[0])

    _, (y, dx) = jax.lax.scan(step, 0, (jnp.atleast_2d(x), jnp.atleast_2d(dy)))
    return {"y": y.reshape(x.shape), "dx": dx.reshape(x.shape)}
