"""spectral_norm, cheat: sigma from jnp.linalg.eigvalsh of W^T W (an eigendecomposition), the
gradient c u v^T from a power loop of K steps run beside it.

Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    top = jnp.sqrt(jnp.linalg.eigvalsh(Wc.T @ Wc)[-1])
    return u @ W @ v - jax.lax.stop_gradient(u @ W @ v) + top
