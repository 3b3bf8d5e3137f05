"""spectral_norm: a ``lax.while_loop`` whose counter the student asked for as ``jnp.int64``
(with 64-bit types off JAX makes it an int32, with a warning), tested by ``i < K``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, v = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    i0 = jnp.asarray(0, dtype=jnp.int64)
    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body,
                                 (i0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
