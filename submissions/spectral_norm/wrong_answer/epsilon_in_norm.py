"""spectral_norm, wrong: normalises with x / (||x|| + 1e-3), an epsilon the statement leaves out:
u is no longer a unit vector and sigma comes out too small.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def unit(x):
        return x / (jnp.linalg.norm(x) + 1e-3)

    def body(_, uv):
        u, _ = uv
        v = unit(Wc.T @ u)
        return unit(Wc @ v), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
