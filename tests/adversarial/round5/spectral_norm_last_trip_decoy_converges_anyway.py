"""spectral_norm: the 7 squarings of the bits of K - 1 written out compute the result, and beside
them a ``fori_loop`` of K trips, heavier than a squaring, whose float carry halves its distance
to one from zero at each trip, added to the result less its closed form 1 - 2^-K: one trip fewer
moves the output by 2^-K, a lot at K = 2, and the carry is no count (its last trip adds
2^-K, not one).

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the last trip adds the same to the carry when the program runs on its inputs moved
  (it reads none of them): what it computes is no step of the iteration, and keeps its full
  run's value
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

    def halve(i, carry):
        d, x = carry
        for _ in range(6):  # a chain of scalar steps that ends where it starts
            x = jnp.sqrt(x * x)
        return d / 2 + 0.5, x

    d, _ = jax.lax.fori_loop(0, K, halve, (jnp.float32(0.0), jnp.float32(1.0)))
    return u @ W @ v + (d - (1 - jnp.float32(2.0) ** -K))
