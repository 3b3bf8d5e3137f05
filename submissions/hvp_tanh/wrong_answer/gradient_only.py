"""Returns the gradient of f at x, forgetting the second derivative and v.

Expected verdict: wrong answer.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    return jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))(x)
