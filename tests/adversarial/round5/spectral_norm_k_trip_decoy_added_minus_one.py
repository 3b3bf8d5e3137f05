"""spectral_norm: the 7 squarings of a fixed loop compute the result, and beside them a
``fori_loop`` of K trips that multiplies a number by W[0, 0] / W[0, 0] (one), added to the
result minus one: the decoy's value shows in the output, but a trip of it runs two equations.

Problem: spectral_norm
Expected: RJ unrolled_loop
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


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    decoy = jax.lax.fori_loop(0, K, lambda i, c: c * (Wc[0, 0] / Wc[0, 0]), jnp.float32(1.0))
    return _sigma(W, Wc, u0, _squarings(Wc, K)) + (decoy - 1.0)
