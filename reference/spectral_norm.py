"""Reference solution for spectral_norm: K steps of power iteration in a jax.lax.fori_loop on
W with its gradient stopped, then sigma = u^T W v with u and v held constant, so that the
derivative with respect to W is u v^T whether or not the iteration has converged."""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
