"""grad_reversal: the input viewed as rows (``jnp.atleast_2d``) and the ``custom_vjp`` layer
applied to each row with ``jax.lax.map``; ``jax.grad`` of a ``vdot`` with dy.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def flip(row):
        return row

    flip.defvjp(lambda row: (row, None), lambda _, g: (-lam * g,))

    def layer(x):
        return jax.lax.map(flip, jnp.atleast_2d(x)).reshape(x.shape)

    y = layer(x)
    dx = jax.grad(lambda x: jnp.vdot(layer(x), dy))(x)
    return {"y": y, "dx": dx}
