"""spectral_norm: a ``jax.debug.print`` of the step number and the running estimate left in the
``lax.fori_loop`` body (the student watched it converge); the print computes nothing the output
needs, and the rules refuse callbacks, not prints.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(i, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        jax.debug.print("step {i}: sigma ~ {s}", i=i, s=jnp.linalg.norm(W @ v))
        return u, v

    u, v = lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
