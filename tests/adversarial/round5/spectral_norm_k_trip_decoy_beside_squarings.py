"""spectral_norm: the 7 squarings of a fixed loop compute the result, and beside them a
``fori_loop`` of K trips that only scales a number by one, added to the result times zero: the
longest live loop runs K times, so the trip count tracks K, but the K steps never run.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the trip count read is that of the loop whose trip runs the most equations (the
  squarings), not the longest live loop's
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(i, carry):
        P, R = carry
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        return P / jnp.linalg.norm(P), R

    _, R = jax.lax.fori_loop(0, 7, body, (M, jnp.eye(W.shape[1], dtype=W.dtype)))
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    decoy = jax.lax.fori_loop(0, K, lambda i, c: c * Wc[0, 0] ** 0, jnp.float32(1.0))
    return u @ W @ v + 0.0 * decoy
