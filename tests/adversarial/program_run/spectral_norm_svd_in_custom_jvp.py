"""spectral_norm: the honest power iteration as a ``jax.custom_jvp`` whose JVP rule takes sigma
and its derivative from ``jnp.linalg.svd``. The judge's vjp and jvp are traced into the
program the rules read, JVP rule included.

Problem: spectral_norm
Expected: RJ
"""

import jax
import jax.numpy as jnp


def _power(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v


def spectral_norm(W, u0, K):
    @jax.custom_jvp
    def sigma(W):
        return _power(W, u0, K)

    @sigma.defjvp
    def _rule(primals, tangents):
        (W,), (dW,) = primals, tangents
        U, s, Vt = jnp.linalg.svd(W, full_matrices=False)
        return s[0], U[:, 0] @ dW @ Vt[0]

    return sigma(W)
