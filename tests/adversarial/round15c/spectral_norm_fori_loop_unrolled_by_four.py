"""spectral_norm: ``jax.lax.fori_loop(0, K, step, init, unroll=4)`` (a habit for speed: four
steps to a trip, K not a multiple of 4 run by the loop's remainder), the vectors stopped
after the loop and sigma ``jnp.vdot(u, W @ v)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1])), unroll=4)
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
