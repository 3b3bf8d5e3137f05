"""hvp_tanh: ``jax.jacfwd(jax.grad(f))(x) @ v``: builds the d x d Hessian.

Problem: hvp_tanh
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    return jax.jacfwd(jax.grad(f))(x) @ v
