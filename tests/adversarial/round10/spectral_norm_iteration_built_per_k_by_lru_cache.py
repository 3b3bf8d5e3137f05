"""spectral_norm: the student builds one jitted iteration per K and keeps it in a
``functools.lru_cache`` (K is a Python int), the loop a ``lax.scan`` over ``jnp.arange(K)`` whose
body ignores the index; sigma differentiable in W with the vectors stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def _iteration(K):
    def run(W, u0):
        def step(carry, _):
            u, _v = carry
            v = W.T @ u
            v = v / jnp.linalg.norm(v)
            u = W @ v
            return (u / jnp.linalg.norm(u), v), None

        (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros_like(W[0])), jnp.arange(K))
        return u, v

    return jax.jit(run)


def spectral_norm(W, u0, K):
    u, v = _iteration(K)(jax.lax.stop_gradient(W), u0)
    return u @ W @ v
