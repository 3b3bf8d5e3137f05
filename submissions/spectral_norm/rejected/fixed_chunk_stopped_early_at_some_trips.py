"""spectral_norm, cheat: a fori_loop of K // 8 + 1 trips, each running a while loop of at most 24
steps masked past K whose condition also asks that its holder's trip be one of the first (``(j <
24) & (i * 24 < K)``): read as at most 24 trips, an early exit, it runs 24 steps at a few of
the K // 8 + 1 trips and none at the others, 24 at a time whatever K is.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp

CHUNK = 24


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def chunk(i, uv):
        def more(state):
            j = state[0]
            return (j < CHUNK) & (i * CHUNK < K)

        def step(state):
            j, u, v = state
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            real = i * CHUNK + j < K
            return j + 1, jnp.where(real, nu, u), jnp.where(real, nv, v)

        _, u, v = jax.lax.while_loop(more, step, (0, *uv))
        return u, v

    u, v = jax.lax.fori_loop(0, K // 8 + 1, chunk, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
