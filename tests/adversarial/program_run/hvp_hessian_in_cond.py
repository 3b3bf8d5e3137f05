"""hvp_tanh: a lax.cond on d as data: the full d x d Hessian when d <= 4, the jvp-of-grad
otherwise. Both branches are in the program the rules read; the Hessian grows as d^2.

Problem: hvp_tanh
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731

    def full(x, v):
        return jax.hessian(f)(x) @ v

    def cheap(x, v):
        return jax.jvp(jax.grad(f), (x,), (v,))[1]

    return jax.lax.cond(jnp.array(x.shape[0]) <= 4, full, cheap, x, v)
