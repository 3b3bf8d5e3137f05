"""spectral_norm, refused: the counter of shape (1,) starts at ``(0 * W[:1, 0]).astype(int32)``,
a zero computed from W: the loop runs K trips on every case, but nothing read before it runs
says so (a start computed from an array could be anything), so its count is data.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(state):
        i, u, v = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    start = (0 * W[:1, 0]).astype(jnp.int32)
    _, u, v = jax.lax.while_loop(lambda s: s[0][0] < K, body, (start, u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return u @ W @ v
