"""spectral_norm: the forward is the honest loop, but the ``jax.custom_vjp`` backward takes u
and v from ``jnp.linalg.svd``. The judge's vjp is traced into the program the rules read, so
the SVD in the backward rule is seen.

Problem: spectral_norm
Expected: RJ forbidden_primitive
"""

import jax
import jax.numpy as jnp


def _loop(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


def spectral_norm(W, u0, K):
    @jax.custom_vjp
    def sigma(W):
        u, v = _loop(W, u0, K)
        return u @ W @ v

    def fwd(W):
        return sigma(W), W

    def bwd(W, c):
        U, _, Vt = jnp.linalg.svd(W, full_matrices=False)
        u, v = U[:, 0], Vt[0]
        return (c * jnp.outer(u, v),)

    sigma.defvjp(fwd, bwd)
    return sigma(W)
