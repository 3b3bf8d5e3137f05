"""spectral_norm, cheat: a fori_loop of 64 trips whatever K, the steps past K masked out with
jnp.where: the program never grows with K, but the loop's trip count does not track it.

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
        keep = i < K
        return jnp.where(keep, nu, u), jnp.where(keep, nv, v)

    u, v = jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
