"""spectral_norm: ``lax.fori_loop(0, K, step, init, unroll=2)``: JAX lowers it to a scan of
K // 2 trips of two steps, plus the odd step written out where K is odd.

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

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)), unroll=2)
    return u @ W @ v
