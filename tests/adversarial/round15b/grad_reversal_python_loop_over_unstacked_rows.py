"""grad_reversal: the rows of ``atleast_2d(x)`` taken apart with ``jnp.unstack`` (a Python loop
over them is fine: x's shape is a number here), the layer applied to each row by a list
comprehension and the rows put back with ``jnp.stack``.

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

    def layer(v):
        rows = jnp.unstack(jnp.atleast_2d(v))
        return jnp.stack([r(row) for row in rows]).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
