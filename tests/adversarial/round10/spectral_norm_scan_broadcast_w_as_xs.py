"""spectral_norm: the student scans over K copies of the matrix (``jnp.broadcast_to(W, (K, m, n))``
as xs, one per step, each stopped), so the scan's length comes from xs; sigma with the original
W and the last u and v.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    stack = jax.lax.stop_gradient(jnp.broadcast_to(W, (K,) + W.shape))

    def step(carry, Wk):
        u, _ = carry
        v = Wk.T @ u
        v = v / jnp.sqrt(v @ v)
        u = Wk @ v
        u = u / jnp.sqrt(u @ u)
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1])), stack)
    return u @ W @ v
