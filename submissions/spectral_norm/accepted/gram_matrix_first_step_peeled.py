"""spectral_norm, honest: the first v written out, then K - 1 trips of v <- normalise(W^T W v)
with the Gram matrix formed once, u = normalise(W v) last (the same iterates), sigma = u . W v.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)
    G = Ws.T @ Ws
    v = Ws.T @ u0
    v = v / jnp.linalg.norm(v)
    v = jax.lax.fori_loop(1, K, lambda _, v: (G @ v) / jnp.linalg.norm(G @ v), v)
    u = Ws @ v
    u = u / jnp.linalg.norm(u)
    return jnp.vdot(u, W @ v)
