"""spectral_norm: the 7 squarings of the bits of K - 1 written out compute the result, and beside
them a ``fori_loop`` of K trips, heavier than a squaring, whose float carry counts the trips
plus 1e-3 of W[0, 0] a trip, added to the result less what it should hold (K and K times the
term, computed outside the loop): the carry moves with the data, so it is not read as a mere
count, and one trip fewer moves the output by one.

Problem: spectral_norm
Expected: RJ unrolled_loop
Open: AC: a carry that counts the trips and also reads the data is the loop's work as far as
  its values show; what a trip computes that a closed form outside the loop cancels is not told
  apart from a step
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    P = Wc.T @ Wc
    P = P / jnp.linalg.norm(P)
    R = jnp.eye(W.shape[1], dtype=W.dtype)
    for i in range(7):
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        P = P / jnp.linalg.norm(P)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    term = 1e-3 * Wc[0, 0]

    def count(i, carry):
        c, x = carry
        for _ in range(6):  # a chain of scalar steps that ends where it starts
            x = jnp.sqrt(x * x)
        return c + 1.0 + term, x

    c, _ = jax.lax.fori_loop(0, K, count, (jnp.float32(0.0), jnp.float32(1.0)))
    return u @ W @ v + (c - K - K * term)
