"""spectral_norm, cheat: the power steps in a fixed 64-trip fori_loop masked past K, beside a
light fori_loop of K trips that only counts and whose result is added times zero to sigma.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(i, uv):
        u, v = uv
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        return jnp.where(i < K, nu, u), jnp.where(i < K, nv, v)

    u, v = jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    count = jax.lax.fori_loop(0, K, lambda i, c: c + jnp.sum(u) * 0.0 + 1.0, 0.0)
    return u @ W @ v + 0.0 * count
