"""spectral_norm, cheat: the top singular value from eigh of W^T W, the power loop run beside it
to look honest.

Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    w, _ = jnp.linalg.eigh(W.T @ W)
    u = jax.lax.fori_loop(0, K, lambda i, u: (W @ (W.T @ u)) / jnp.linalg.norm(W @ (W.T @ u)), u0)
    return jnp.sqrt(w[-1]) + 0.0 * jnp.sum(u)
