"""spectral_norm: the 7 squarings of the bits of K - 1 written out compute the result, and beside
them a ``fori_loop`` of K trips, heavier than a squaring, that counts its trips twice, as an
integer and as a float, both added to the result minus K: one trip fewer moves the output by
two, so a test that only stops the loop early sees it move.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: what a loop gives out that comes out the same from its data moved (a count, an
  integer) keeps its full run's value when the loop is stopped one trip early
"""

import jax
import jax.numpy as jnp


def _squarings(Wc, K):
    P = Wc.T @ Wc
    P = P / jnp.linalg.norm(P)
    R = jnp.eye(Wc.shape[1], dtype=Wc.dtype)
    for i in range(7):
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        P = P / jnp.linalg.norm(P)
    return R


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    v = _squarings(Wc, K) @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)

    def count(i, carry):
        n, c, x = carry
        for _ in range(6):  # a chain of scalar steps that ends where it starts
            x = jnp.sqrt(x * x)
        return n + 1, c + 1.0, x

    n, c, _ = jax.lax.fori_loop(0, K, count, (jnp.int32(0), jnp.float32(0.0), jnp.float32(1.0)))
    return u @ W @ v + (n - K).astype(W.dtype) + (c - K)
