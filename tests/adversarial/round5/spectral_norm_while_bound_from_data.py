"""spectral_norm: the squarings of a fixed 7 trips again, in a ``lax.while_loop`` whose bound is
computed from W (7 plus zero times an entry, as an int): the count is data to a reader of the
program, so nothing ties it to K, and the K steps never run.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the loop doing the most work runs a number of times that is data, which is
  refused (nothing shows that it tracks K)
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
    _, _, R = jax.lax.while_loop(lambda s: s[0] < bound, body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
