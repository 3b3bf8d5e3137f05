"""spectral_norm: a ``lax.while_loop`` over ``(i, u, v)`` on the stopped W, and sigma as the
Rayleigh quotient's square root, ``sqrt(v^T W^T W v)`` = ||W v|| with v from the loop (its
gradient (W v / ||W v||) v^T is u v^T).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def cond(carry):
        i, _, _ = carry
        return i < K

    def body(carry):
        i, u, _ = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, _, v = lax.while_loop(cond, body, (jnp.int32(0), u0, jnp.zeros(W.shape[1], W.dtype)))
    wv = W @ v
    return jnp.sqrt(jnp.vdot(wv, wv))
