"""spectral_norm: the loop wrapped in ``lax.cond(K > 0, ...)`` outside it, the student guarding
K = 0 (which the statement excludes) by returning u0 and zeros.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    v0 = jnp.zeros(W.shape[1], W.dtype)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.cond(K > 0, lambda: jax.lax.fori_loop(0, K, step, (u0, v0)),
                        lambda: (u0, v0))
    return u @ W @ v
