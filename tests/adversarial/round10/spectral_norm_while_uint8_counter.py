"""spectral_norm: a ``lax.while_loop`` whose counter is a ``jnp.uint8`` (K is at most 64),
compared with ``jnp.uint8(K)``, u and v carried in a list.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(state):
        i, (u, v) = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + jnp.uint8(1), [u, v]

    _, (u, v) = jax.lax.while_loop(lambda s: s[0] < jnp.uint8(K), body,
                                   (jnp.uint8(0), [u0, jnp.zeros(W.shape[1], W.dtype)]))
    return jax.lax.stop_gradient(u) @ W @ jax.lax.stop_gradient(v)
