"""spectral_norm: the student carries W itself through the ``lax.fori_loop`` beside u and v (the
body reads the matrix from the carry and hands it back unchanged), stops u and v after the loop,
and takes sigma with the W the loop returns, so the derivative passes through the loop's carry.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(_, carry):
        Wc, u, v = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return Wc, u, v

    W_out, u, v = lax.fori_loop(0, K, body, (W, u0, jnp.zeros_like(W[0])))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W_out @ v
