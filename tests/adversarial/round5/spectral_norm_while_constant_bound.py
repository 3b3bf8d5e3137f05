"""spectral_norm: the matrix power (W^T W)^(K-1) taken by squarings in a hand-written
``lax.while_loop`` whose counter runs from 0 while it is below the constant 7 (one trip per bit of
K - 1), then one step from u0 through it. A while loop computes the output and the program is
the same for every K, but the loop runs 7 times whatever K is.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(state):
        i, P, R = state
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        P = P @ P
        return i + 1, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, R = jax.lax.while_loop(lambda s: s[0] < 7, body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
