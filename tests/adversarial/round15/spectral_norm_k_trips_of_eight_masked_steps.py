"""spectral_norm, cheat on the loop rule: a ``fori_loop`` of K trips (so its count grows with K)
whose body is a ``fori_loop`` of eight steps each masked by ``8 * i + j < K``: the K steps all
run in the first K / 8 trips, and the other trips pad the loop with masked steps, many more
than the one trip the statement allows.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def outer(i, uv):
        def inner(j, uv):
            u, v = uv
            nv = _unit(Ws.T @ u)
            nu = _unit(Ws @ nv)
            live = 8 * i + j < K
            return jnp.where(live, nu, u), jnp.where(live, nv, v)

        return lax.fori_loop(0, 8, inner, uv)

    u, v = lax.fori_loop(0, K, outer, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
