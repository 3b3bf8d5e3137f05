"""spectral_norm, wrong: the first step written out and then a scan of length K (one step too
many after the peel).

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(uv, _):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return (u / jnp.linalg.norm(u), v), None

    first, _ = step((u0, None), None)
    (u, v), _ = jax.lax.scan(step, first, None, length=K)
    return u @ W @ v
