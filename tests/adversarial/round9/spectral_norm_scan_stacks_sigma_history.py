"""spectral_norm: a ``lax.scan`` of K trips that also emits the running estimate of sigma at
every step (a student's convergence log: the stacked (K,) history), the answer being its last
entry. Each step stops its new vectors, so sigma at step t differentiates as u_t^T dW v_t.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(u, _):
        v = lax.stop_gradient(W.T @ u)
        v = v / jnp.linalg.norm(v)
        u_new = lax.stop_gradient(W @ v)
        u_new = u_new / jnp.linalg.norm(u_new)
        sigma = jnp.dot(u_new, W @ v)
        return u_new, sigma

    _, history = lax.scan(step, u0, xs=None, length=K)
    return history[-1]
