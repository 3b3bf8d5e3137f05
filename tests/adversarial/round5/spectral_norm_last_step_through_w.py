"""spectral_norm: K - 1 steps on W with its gradient stopped, the last step on W itself, so the
derivative runs through one step of the iteration: u and v of the last step are not held
constant. Where the iteration has converged this changes nothing; where it has not, the
gradient is wrong.

Problem: spectral_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u, _ = jax.lax.fori_loop(0, K - 1, lambda _, c: _step(Wc, c[0]), (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = _step(W, u)
    return u @ W @ v
