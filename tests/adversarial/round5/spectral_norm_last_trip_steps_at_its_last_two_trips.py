"""spectral_norm: the 7 squarings of the bits of K - 3 written out compute K - 2 steps, and a
``fori_loop`` of K trips takes a step under a ``lax.cond`` at its last two trips only (every other
trip runs the branch that does nothing): leaving out its last trip, or the one before it, moves
the output, though its other K - 2 trips never step.

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
    for i in range(7):  # (W^T W)^(K - 3) by the bits of K - 3 (the identity up to K = 3)
        R = jnp.where((jnp.maximum(K - 3, 0) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        P = P / jnp.linalg.norm(P)
    v = R @ (Wc.T @ u0)  # K - 2 steps (none up to K = 2: the loop's steps are then all of them)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    start = jnp.where(K <= 2, u0, u)

    def trip(i, carry):
        return jax.lax.cond(i >= K - 2, lambda c: _step(Wc, c[0]), lambda c: c, carry)

    u, v = jax.lax.fori_loop(0, K, trip, (start, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
