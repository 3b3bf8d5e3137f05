"""spectral_norm: a ``lax.while_loop`` on the stopped W carrying (i, u, v, sigma), sigma updated
each step as ||W v||; after the loop sigma is computed again as ``u @ W @ v`` on W itself so
that its gradient is u v^T (the carried sigma only for watching it converge).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, v, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        wv = Wc @ v
        s = jnp.linalg.norm(wv)
        return i + 1, wv / s, v, s

    init = (0, u0, jnp.zeros(W.shape[1], W.dtype), jnp.float32(0))
    _, u, v, _ = jax.lax.while_loop(lambda s: s[0] < K, body, init)
    return u @ W @ v
