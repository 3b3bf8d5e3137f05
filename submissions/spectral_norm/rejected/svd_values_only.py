"""spectral_norm, cheat: jnp.linalg.svd(W, compute_uv=False)[0] (the converged value) where K is
large, the power loop where it is small: an SVD all the same.

Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    sigma = u @ W @ v
    top = jnp.linalg.svd(Wc, compute_uv=False)[0]
    return jnp.where(K >= 40, sigma - jax.lax.stop_gradient(sigma) + top, sigma)
