"""spectral_norm, cheat on the loop rule: a ``fori_loop`` of ceil(K / 16) trips, each trip
sixteen steps written out and those past K masked by ``jnp.where``: the trips grow with K, but
at sixteen steps to a trip, where the statement allows at most eight.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax.numpy as jnp
from jax import lax

STEPS = 16


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def trip(t, carry):
        for j in range(STEPS):
            u, v = carry
            nv = Ws.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Ws @ nv
            nu = nu / jnp.linalg.norm(nu)
            live = t * STEPS + j < K
            carry = (jnp.where(live, nu, u), jnp.where(live, nv, v))
        return carry

    u, v = lax.fori_loop(0, -(-K // STEPS), trip, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
