"""spectral_norm: a ``lax.while_loop`` whose test is written ``K > i`` (the bound on the left).

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

    _, u, v = jax.lax.while_loop(lambda s: K > s[0], body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient((u, v))
    return jnp.vdot(u, W @ v)
