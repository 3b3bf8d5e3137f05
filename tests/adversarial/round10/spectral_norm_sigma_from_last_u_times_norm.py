"""spectral_norm, wrong answer: the student takes sigma as ||W^T u|| with the last u (the norm the
next v step would divide by), which equals u^T W v only once the iteration has converged; the
cases stopped after a few steps tell them apart.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, u):
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u)

    u = jax.lax.stop_gradient(jax.lax.fori_loop(0, K, body, u0))
    return jnp.linalg.norm(W.T @ u)
