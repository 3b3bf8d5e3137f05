"""spectral_norm: ``lax.fori_loop(0, K, step, init, unroll=True)``, which JAX keeps as one scan
of K trips marked to be unrolled when compiled (the traced program does not grow with K), on
the stopped W.

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

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros_like(W[0])), unroll=True)
    return u @ W @ v
