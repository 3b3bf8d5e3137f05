"""hvp_tanh: a lax.cond on ``x.shape[0] == 1`` as data, whose branch for d = 1 returns zeros. The
cases with d = 1 run that branch and are graded like any other.

Problem: hvp_tanh
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731

    def honest(x, v):
        return jax.jvp(jax.grad(f), (x,), (v,))[1]

    return jax.lax.cond(jnp.array(x.shape[0]) == 1, lambda x, v: jnp.zeros_like(v), honest, x, v)
