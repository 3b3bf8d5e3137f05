"""spectral_norm: the 7 squarings of the bits of K // 2 written out compute K // 2 steps, and a
``fori_loop`` of K trips takes a step under a ``lax.cond`` at every other trip only, its last
among them (the others run the branch that does nothing): half the trips compute, and leaving
out the last, or any one of those, moves the output.

Problem: spectral_norm
Cases: all
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def _step(Wc, u):
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    P = Wc.T @ Wc
    P = P / jnp.linalg.norm(P)
    R = jnp.eye(W.shape[1], dtype=W.dtype)
    ahead = K // 2
    for i in range(7):  # (W^T W)^(K // 2 - 1) by its bits (the identity at K < 4)
        R = jnp.where((jnp.maximum(ahead - 1, 0) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        P = P / jnp.linalg.norm(P)
    v = R @ (Wc.T @ u0)  # K // 2 steps (none at K = 1)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    start = jnp.where(ahead == 0, u0, u)

    def trip(i, carry):  # the trips of K - 1's parity: K - K // 2 of them, the last among them
        return jax.lax.cond(i % 2 == (K - 1) % 2, lambda c: _step(Wc, c[0]), lambda c: c, carry)

    u, v = jax.lax.fori_loop(0, K, trip, (start, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
