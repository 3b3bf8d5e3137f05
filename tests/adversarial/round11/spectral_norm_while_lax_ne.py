"""spectral_norm: a ``lax.while_loop`` tested by ``lax.ne(i, jnp.int32(K))``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(state):
        i, u, v = state
        Wc = lax.stop_gradient(W)
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = lax.while_loop(lambda s: lax.ne(s[0], jnp.int32(K)), body,
                             (jnp.int32(0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
