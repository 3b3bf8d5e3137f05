"""spectral_norm: a ``lax.while_loop`` whose carry holds K itself as an int32 array beside the
counter (the condition ``i < k`` reads it from the carry), on the stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def cond(c):
        i, k, _, _ = c
        return i < k

    def body(c):
        i, k, u, _ = c
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return i + 1, k, u / jnp.linalg.norm(u), v

    init = (jnp.int32(0), jnp.int32(K), u0, jnp.zeros(W.shape[1], W.dtype))
    _, _, u, v = jax.lax.while_loop(cond, body, init)
    return u @ W @ v
