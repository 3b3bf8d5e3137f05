"""spectral_norm, cheat on "K steps": v after K steps is the direction of (W^T W)^(K-1) W^T u0,
computed by squaring W^T W recursively (log2 K levels, each a ``jax.checkpoint``ed squaring
normalised by its largest entry), with a ``fori_loop`` of K trips beside that only counts.
The loop that matters runs log2 K times, which the statement refuses.

Problem: spectral_norm
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.checkpoint
def _square(G):
    G2 = G @ G
    return G2 / jnp.max(jnp.abs(G2))


def _power_times(G, x, e):
    # G^e x by binary powers, the recursion depth log2 e
    if e == 0:
        return x
    if e % 2:
        x = G @ x
        x = x / jnp.linalg.norm(x)
    return _power_times(_square(G), x, e // 2)


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)
    G = Ws.T @ Ws
    G = G / jnp.max(jnp.abs(G))
    v = Ws.T @ u0
    v = _power_times(G, v / jnp.linalg.norm(v), K - 1)
    v = v / jnp.linalg.norm(v)
    u = Ws @ v
    u = u / jnp.linalg.norm(u)
    trips = lax.fori_loop(0, K, lambda i, c: c + 1, 0)
    return u @ W @ v + 0.0 * trips
