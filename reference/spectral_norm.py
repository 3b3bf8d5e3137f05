"""Reference solution for spectral_norm: K steps of power iteration on W, run in a
lax.fori_loop on W held constant for differentiation (so u and v are constants), then sigma = u^T W v with the last
u and v. Since u and v are constants, the derivative with respect to W is u v^T (reverse mode)
and u^T dW v (forward mode), whether or not the iteration has converged."""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _v = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return u, v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
