"""spectral_norm: a ``lax.while_loop`` whose counter counts down from K to zero (``k > 0``, then
``k - 1``), carrying u and v, on the stopped W; sigma by ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        k, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return k - 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] > 0, body, (K, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
