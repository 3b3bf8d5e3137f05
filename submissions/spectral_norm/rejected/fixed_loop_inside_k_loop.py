"""spectral_norm, cheat: an outer fori_loop of K trips that computes nothing but, at its last
trip, a lax.cond into a fixed 64-trip fori_loop that runs the K steps masked past K: the loop
with K trips is there, but the steps run in the fixed one.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def _all_steps(Wc, u0, K):
    def body(i, uv):
        u, v = uv
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        return jnp.where(i < K, nu, u), jnp.where(i < K, nv, v)

    return jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(Wc.shape[1], Wc.dtype)))


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def outer(i, uv):
        return jax.lax.cond(i == K - 1, lambda: _all_steps(Wc, u0, K), lambda: uv)

    u, v = jax.lax.fori_loop(0, K, outer, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
