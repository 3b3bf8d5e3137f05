"""spectral_norm: the 7 squarings in a ``lax.while_loop`` with two counters stepped together,
``i`` compared with K and ``j`` with ``7 + 0 * W[0, 0]``: the test on K names one counter, the
bound that is data the other.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)
    bound = 7 + (0 * Wc[0, 0]).astype(jnp.int32)

    def body(state):
        i, j, P, R = state
        R = jnp.where(((K - 1) >> j) & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, j + 1, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, 0, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (s[1] < bound), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
