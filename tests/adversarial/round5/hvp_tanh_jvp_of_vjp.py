"""hvp_tanh: forward-over-reverse written with ``jax.vjp`` for the gradient and ``jax.jvp``
over it.

Problem: hvp_tanh
Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    def grad_f(z):
        _, pull = jax.vjp(f, z)
        return pull(jnp.ones((), z.dtype))[0]

    return jax.jvp(grad_f, (x,), (v,))[1]
