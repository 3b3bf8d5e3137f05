"""spectral_norm: the 7 squarings in a ``lax.while_loop`` whose condition is ``i < K`` and
``i < 7 + 0 * W[0, 0]`` (an int): the count read is at most K, as for a loop that may stop
early, and the loop stops at 7 whatever K is.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: a test of the condition that no count is read from and that reads a counter (a
  carry the body steps by a whole number) stops the loop at a bound that is data: the count is
  data, not at most K as for a loop that stops early on a value it computes
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)
    bound = 7 + (0 * Wc[0, 0]).astype(jnp.int32)

    def body(state):
        i, P, R = state
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (s[0] < bound), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
