"""grad_reversal: the layer applied inside a ``lax.cond`` whose predicate reads x (the same
layer in both branches, as a shape-generic wrapper might do), the pullback of the whole.

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

    def layer(v):
        return lax.cond(jnp.sum(v) >= 0, r, r, v)

    y, back = jax.vjp(layer, x)
    return {"y": y, "dx": back(dy)[0]}
