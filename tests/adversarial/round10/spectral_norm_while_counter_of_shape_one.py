"""spectral_norm: a ``lax.while_loop`` whose counter is an int32 array of shape (1,) (started by
``jnp.zeros(1, jnp.int32)``), the test ``s[0][0] < K`` reading its one entry, the body stepping
it by one.

Problem: spectral_norm
Expected: AC
Cases: all
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

    _, u, v = jax.lax.while_loop(lambda s: s[0][0] < K, body,
                                 (jnp.zeros(1, jnp.int32), u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return u @ W @ v
