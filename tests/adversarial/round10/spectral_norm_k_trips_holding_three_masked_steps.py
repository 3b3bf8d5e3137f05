"""spectral_norm, refused: each of the K trips of a ``fori_loop`` runs an inner ``fori_loop`` of three
trips, each a whole step masked past K (only the first K of the 3K steps count): a step and its
two halves fit in a trip of K, but three steps a trip held by K trips pad far more than one
trip past K.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Wd = lax.stop_gradient(W)

    def step(j, state):
        n, u, v = state
        nv = Wd.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wd @ nv
        nu = nu / jnp.linalg.norm(nu)
        go = n < K
        return n + 1, jnp.where(go, nu, u), jnp.where(go, nv, v)

    def trip(_, state):
        return lax.fori_loop(0, 3, step, state)

    _, u, v = lax.fori_loop(0, K, trip, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
