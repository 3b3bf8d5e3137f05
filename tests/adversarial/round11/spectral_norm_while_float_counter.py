"""spectral_norm: a ``lax.while_loop`` whose counter is a float32 (``0.0``, plus ``1.0`` a trip)
tested by ``t < K``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        t, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return t + 1.0, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body,
                                 (jnp.float32(0.0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
