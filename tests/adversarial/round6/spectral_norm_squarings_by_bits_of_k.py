"""spectral_norm: no power iteration at all: M = W^T W is raised to the power K - 1 by squaring
over a ``fori_loop`` of 7 trips (the bits of K, at most 64), each squaring rescaled to stay
finite, then v = M^(K-1) W^T u0 normalised. The right values, but a loop of a fixed number of
trips: the K steps do not run in the loop.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    e = K - 1

    def bit(i, acc):
        P, Q = acc
        on = (e >> i) & 1
        P = jnp.where(on == 1, P @ Q, P)
        P = P / jnp.max(jnp.abs(P))
        Q = Q @ Q
        Q = Q / jnp.max(jnp.abs(Q))
        return P, Q

    P, _ = jax.lax.fori_loop(0, 7, bit, (jnp.eye(M.shape[0], dtype=M.dtype), M))
    v = P @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
