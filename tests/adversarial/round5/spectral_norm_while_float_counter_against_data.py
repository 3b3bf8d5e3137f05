"""spectral_norm: the 7 squarings in a ``lax.while_loop`` on ``(i < K) & (t < bound)``, ``t`` a
float counter stepped by 1.0 beside the int one and ``bound`` 7.0 computed from W.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)
    bound = 7.0 + 0.0 * Wc[0, 0]

    def body(state):
        i, t, P, R = state
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, t + 1.0, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, jnp.float32(0.0), M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (s[1] < bound), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
