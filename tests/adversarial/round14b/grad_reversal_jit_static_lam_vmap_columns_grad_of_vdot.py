"""grad_reversal: the layer ``jax.vmap``-ed over the columns of ``jnp.atleast_2d(x)``
(``in_axes=1``, ``out_axes=1``) under ``jax.jit`` with ``static_argnames=("lam",)``; dx by
``jax.grad`` of a ``jnp.vdot`` with dy.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lam",))
def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def flip(col):
        return col

    flip.defvjp(lambda col: (col, ()), lambda _, g: (-lam * g,))

    def layer(x):
        return jax.vmap(flip, in_axes=1, out_axes=1)(jnp.atleast_2d(x)).reshape(x.shape)

    return {"y": layer(x), "dx": jax.grad(lambda x: jnp.vdot(layer(x), dy))(x)}
