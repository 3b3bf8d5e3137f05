"""spectral_norm: sigma written as ``u @ (W @ v)`` with u from the loop held constant, v also
stopped; the vector norms by ``jnp.linalg.norm(x, ord=2)`` (a vector norm, no SVD), and the
loop a ``fori_loop(..., unroll=2)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        wtu = W.T @ u
        v = wtu / jnp.linalg.norm(wtu, ord=2)
        wv = W @ v
        return wv / jnp.linalg.norm(wv, ord=2), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])), unroll=2)
    u = jax.lax.stop_gradient(u)
    v = jax.lax.stop_gradient(v)
    return u @ (W @ v)
