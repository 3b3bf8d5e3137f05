"""spectral_norm, cheat: a fori_loop of K // 8 + 1 trips that runs, under a lax.cond at its
first trips only, a fixed fori_loop of 24 steps masked past K: its trips times the fixed
loop's stay within 8 to a step, but the steps run 24 at a time whatever K is.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp

CHUNK = 24


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def steps(i, uv):
        def step(t, uv):
            j = i * CHUNK + t
            u, v = uv
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            return jnp.where(j < K, nu, u), jnp.where(j < K, nv, v)

        return jax.lax.fori_loop(0, CHUNK, step, uv)

    def chunk(i, uv):
        return jax.lax.cond(i * CHUNK < K, lambda: steps(i, uv), lambda: uv)

    u, v = jax.lax.fori_loop(0, K // 8 + 1, chunk, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
