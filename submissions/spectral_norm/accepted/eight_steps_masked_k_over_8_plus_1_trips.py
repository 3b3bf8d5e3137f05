"""spectral_norm, honest: K // 8 + 1 trips of a fori_loop, each running a fixed fori_loop of 8
steps, the steps past K masked with jnp.where (at most one trip of padding); stop_gradient at
the end.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def chunk(i, uv):
        def step(t, uv):
            u, v = uv
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            real = i * 8 + t < K
            return jnp.where(real, nu, u), jnp.where(real, nv, v)

        return jax.lax.fori_loop(0, 8, step, uv)

    u, v = jax.lax.fori_loop(0, K // 8 + 1, chunk, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
