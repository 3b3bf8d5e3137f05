"""spectral_norm: the squarings in a ``lax.while_loop`` on ``(i < K) & (bits > 0)``, ``bits``
a carry starting at K - 1 and shifted right at each trip: the loop stops after the bits of
K - 1, about log2(K) trips, where the test on K reads K.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: a test no count is read from that reads a carry the body computes from nothing the
  loop's values move (a counter, bits shifted right) stops the loop where something decided
  before it runs says so: the count is data, not at most K as for an early exit
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(state):
        i, bits, P, R = state
        R = jnp.where(bits & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, bits >> 1, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, K - 1, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (s[1] > 0), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
