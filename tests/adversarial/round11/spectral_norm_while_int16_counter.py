"""spectral_norm: a ``lax.while_loop`` whose counter is a ``jnp.int16`` compared with
``jnp.int16(K)``, u and v carried beside it in a tuple.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + jnp.int16(1), u / jnp.linalg.norm(u), v

    init = (jnp.int16(0), u0, jnp.zeros(W.shape[1], W.dtype))
    _, u, v = jax.lax.while_loop(lambda s: s[0] < jnp.int16(K), body, init)
    return u @ W @ v
