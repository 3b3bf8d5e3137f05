"""spectral_norm: 63 steps of v <- G v on the Gram matrix written out in Python, each kept
with jnp.where(t < K, ...) and normalised every second step, beside a fori_loop of K trips whose
trip runs a chain of scalar steps heavier than a written step: the program is the same at every
K, about six equations a written step.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the loop of K trips that does the most work per trip, stopped one trip early,
  leaves the output the same on every case: the steps written out compute it, not the loop
"""

import jax
import jax.numpy as jnp


def _decoy(i, c):
    for _ in range(4):
        c = (c + 1.0) - 1.0
    return c


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    G = Wc.T @ Wc
    v = Wc.T @ u0
    v = v / jnp.linalg.norm(v)
    for t in range(1, 64):
        v = jnp.where(t < K, G @ v, v)
        if t % 2 == 0:
            v = v / jnp.linalg.norm(v)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    decoy = jax.lax.fori_loop(0, K, _decoy, Wc[0, 0] * 0.0 + 1.0)
    return u @ W @ v + (decoy - 1.0)
