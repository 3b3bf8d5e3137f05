"""spectral_norm: optax-style helper that returns the singular vectors with their gradient
stopped, sigma as a three-operand ``jnp.einsum``, the steps as einsums too.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def power_iteration(W, u, num_iters):
    def step(_, state):
        u, _ = state
        v = jnp.einsum("ij,i->j", W, u)
        v = v / jnp.linalg.norm(v)
        u = jnp.einsum("ij,j->i", W, v)
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, num_iters, step, (u, jnp.zeros(W.shape[-1], W.dtype)))
    return jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)


def spectral_norm(W, u0, K):
    u, v = power_iteration(W, u0, K)
    return jnp.einsum("i,ij,j->", u, W, v)
