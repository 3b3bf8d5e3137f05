"""spectral_norm, honest: the first v written out, then K - 1 trips that each compute u from v
and the next v from that u (the same iterates regrouped), the last u after the loop.

Expected: AC
"""
import jax
import jax.numpy as jnp


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    v = _unit(Wc.T @ u0)
    v = jax.lax.fori_loop(0, K - 1, lambda _, v: _unit(Wc.T @ _unit(Wc @ v)), v)
    u = _unit(Wc @ v)
    return u @ W @ v
