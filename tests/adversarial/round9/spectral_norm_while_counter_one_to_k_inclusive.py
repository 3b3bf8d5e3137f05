"""spectral_norm: a ``lax.while_loop`` whose counter runs from 1 to K inclusive (``i <= K``, the
way the statement numbers the steps), the step as a helper returning the pair, sigma as
``jnp.vdot(u, W @ v)`` with both vectors stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def power_step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    def body(carry):
        i, u, _ = carry
        u, v = power_step(W, u)
        return i + 1, u, v

    _, u, v = lax.while_loop(lambda c: c[0] <= K, body, (1, u0, jnp.zeros(W.shape[1])))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
