"""spectral_norm: a ``lax.scan`` whose carry is one vector, u and v concatenated (``[u; v]``, m + n
entries, split by slicing at the symbolic m), on the stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    m = W.shape[0]
    Ws = lax.stop_gradient(W)

    def step(uv, _):
        v = Ws.T @ uv[:m]
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return jnp.concatenate([u / jnp.linalg.norm(u), v]), None

    uv, _ = lax.scan(step, jnp.concatenate([u0, jnp.zeros(W.shape[1], W.dtype)]), length=K)
    return uv[:m] @ W @ uv[m:]
