"""hvp_tanh, honest: reverse over reverse, the gradient of <grad f(x), v>.

Problem: hvp_tanh
Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    return jax.grad(lambda y: jnp.vdot(jax.grad(f)(y), v))(x)
