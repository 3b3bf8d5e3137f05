"""spectral_norm: ``lax.fori_loop`` whose bounds are ``jnp.uint32(0)`` and ``jnp.uint32(K)``
(an unsigned counter the student picked because K is never negative).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(jnp.uint32(0), jnp.uint32(K), step,
                             (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
