"""spectral_norm, honest: ``lax.scan(length=K, unroll=K)``: the scan unrolled fully by XLA, but
still one scan of K trips in the traced program; sigma from the stopped pair.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(uv, _):
        u, _v = uv
        v = u @ W
        v = v * lax.rsqrt(v @ v)
        u = W @ v
        return (u * lax.rsqrt(u @ u), v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros((W.shape[1],), jnp.float32)), None, length=K, unroll=K)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
