"""spectral_norm: the 7 squarings of a fixed loop compute the result, and beside them a
``fori_loop`` of K trips whose trip runs more equations than a squaring's (a chain of scalar
steps that ends where it starts), added to the result minus one.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the loop whose trip runs the most equations is stopped one trip early on a few
  cases of each K: the output is the same on every case, so that loop computes none of it
"""

import jax
import jax.numpy as jnp


def _squarings(Wc, K):
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(i, carry):
        P, R = carry
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        return P / jnp.linalg.norm(P), R

    return jax.lax.fori_loop(0, 7, body, (M, jnp.eye(Wc.shape[1], dtype=Wc.dtype)))[1]


def _sigma(W, Wc, u0, R):
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v


def _decoy_step(i, c):
    for _ in range(12):
        c = (c + 1.0) - 1.0
        c = c * 1.0
    return c


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    decoy = jax.lax.fori_loop(0, K, _decoy_step, Wc[0, 0] * 0.0 + 1.0)
    return _sigma(W, Wc, u0, _squarings(Wc, K)) + (decoy - 1.0)
