"""spectral_norm, cheat: a fori_loop of K trips whose trip computes nothing (a chain of scalar
steps that ends where it starts) but is longer than a power step, holding at its last trip a
fixed fori_loop of 64 trips that runs the K steps masked past K: the loop of K trips is the one
with the most equations to a trip, and the steps run in the fixed one.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def _all_steps(Wc, uv, K):
    def body(i, uv):
        u, v = uv
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        return jnp.where(i < K, nu, u), jnp.where(i < K, nv, v)

    return jax.lax.fori_loop(0, 64, body, uv)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def outer(i, carry):
        uv, c = carry
        for _ in range(12):
            c = (c + 1.0) - 1.0
            c = c * 1.0
        uv = jax.lax.cond(i == K - 1, lambda: _all_steps(Wc, uv, K), lambda: uv)
        return uv, c

    start = ((u0, jnp.zeros(W.shape[1], W.dtype)), Wc[0, 0] * 0.0 + 1.0)
    (u, v), c = jax.lax.fori_loop(0, K, outer, start)
    return u @ W @ v + (c - 1.0)
