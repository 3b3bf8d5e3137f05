"""grad_reversal: ``jax.vmap`` over the rows of ``jnp.atleast_2d(x)`` of a ``lax.cond`` on the
row's mean, both branches applying the same reversal layer (λ a static nondiff argument with the
same value), one to the row reversed and back: a select on x under ``vmap``, each piece of the
cotangent through the same rule.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse(x, lam):
    return x


reverse.defvjp(lambda x, lam: (x, None), lambda lam, _, g: (-lam * g,))


def grad_reverse(x, lam, dy):
    def row(v):
        return lax.cond(jnp.mean(v) > 0, lambda v: reverse(v, lam),
                        lambda v: reverse(v[::-1], lam)[::-1], v)

    def layer(x):
        return jax.vmap(row)(jnp.atleast_2d(x)).reshape(x.shape)

    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
