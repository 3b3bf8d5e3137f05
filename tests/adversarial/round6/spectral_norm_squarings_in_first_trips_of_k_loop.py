"""spectral_norm: one ``fori_loop`` of K trips whose first seven trips square W^T W (and multiply
by it where K - 1 has that bit) and whose later trips change nothing; v is the direction of
(W^T W)^(K-1) W^T u0 after it. The loop runs K times, but the steps it runs are squarings,
not the K power steps.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    e = K - 1

    def trip(i, acc):
        P, Q = acc
        live = i < 7
        P2 = jnp.where((e >> i) & 1 == 1, P @ Q, P)
        P2 = P2 / jnp.max(jnp.abs(P2))
        Q2 = Q @ Q
        Q2 = Q2 / jnp.max(jnp.abs(Q2))
        return jnp.where(live, P2, P), jnp.where(live, Q2, Q)

    P, _ = jax.lax.fori_loop(0, K, trip, (jnp.eye(M.shape[0], dtype=M.dtype), M))
    v = P @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
