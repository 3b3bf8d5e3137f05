"""spectral_norm, honest: a jitted power step, four of them to a trip of fori_loop(0, K // 4),
and three more always computed after the loop and kept with jnp.where by K % 4; only v is
stopped, so u is differentiated through every step (its change is orthogonal to W v and adds
nothing). With the judge's derivative the program has about 400 equations.

Expected: AC
"""
import jax
import jax.numpy as jnp


@jax.jit
def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        for _ in range(4):
            u, v = _step(W, u)
        return u, v

    u, v = jax.lax.fori_loop(0, K // 4, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    for j in range(3):
        u1, v1 = _step(W, u)
        keep = j < K % 4
        u, v = jnp.where(keep, u1, u), jnp.where(keep, v1, v)
    return u @ W @ jax.lax.stop_gradient(v)
