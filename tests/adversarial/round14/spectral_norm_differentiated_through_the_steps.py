"""spectral_norm, mistake: a ``fori_loop`` with static bounds (a ``scan``, so reverse mode goes
through it) on the live W, nothing stopped: the gradient follows u and v through the K steps,
which differs from c u v^T where the iteration has not converged.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
