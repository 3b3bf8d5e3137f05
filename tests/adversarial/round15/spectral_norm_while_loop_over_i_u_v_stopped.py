"""spectral_norm, honest: ``lax.while_loop`` over a tuple ``(i, u, v)`` counting i up to K, the
normalisation ``a / jnp.linalg.norm(a)``, and ``lax.stop_gradient`` on u and v after the loop,
so that sigma = u W v is differentiated at W alone.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(state):
        i, u, v = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    v0 = jnp.zeros((W.shape[1],), W.dtype)
    _, u, v = lax.while_loop(lambda s: s[0] < K, step, (0, u0, v0))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
