"""grad_reversal: the layer applied row by row in a ``jax.lax.scan`` over the rows of
``jnp.atleast_2d(x)``; ``dx`` the ``jax.vjp`` pullback of dy through the scan (autodiff
transposes the scan, and each row's cotangent passes the rule).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def reverse(row):
        return row

    def fwd(row):
        return row, None

    def bwd(_, g):
        return (-lam * g,)

    reverse.defvjp(fwd, bwd)

    def layer(v):
        _, rows = jax.lax.scan(lambda carry, row: (carry, reverse(row)), None, jnp.atleast_2d(v))
        return rows.reshape(v.shape)

    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
