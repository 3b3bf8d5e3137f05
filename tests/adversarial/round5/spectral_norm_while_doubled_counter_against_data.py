"""spectral_norm: the 7 squarings in a ``lax.while_loop`` on ``(i < K) & (2 * i < bound)``, the
bound ``14`` computed from W: the counter is doubled before it meets the bound, so the test is
not one a count is read from.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)
    bound = jnp.int32(14) + jnp.sign(jnp.abs(Wc).sum()).astype(jnp.int32) - 1

    def body(state):
        i, P, R = state
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (2 * s[0] < bound), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
