"""spectral_norm, honest: lax.scan(..., unroll=True). The traced program holds one scan whatever
K is (unroll only tells the compiler to put every step in one iteration), so it does not grow
with K, and the rules read the traced program.

Expected: AC
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

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K, unroll=True)
    return u @ W @ v
