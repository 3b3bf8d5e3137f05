"""spectral_norm: no power-iteration steps at all: v_K is the direction of (W^T W)^(K-1) W^T u0,
and the matrix power is taken by repeated squaring in a ``fori_loop`` of a fixed 7 trips (one
per bit of K - 1, each product normalised). The program holds a loop primitive and is the same
for every K, but the K steps the statement asks for never run; the values agree to rounding.
The loop's trip count is 7 at every K: it does not track K.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)
    bits = jnp.array([((K - 1) >> i) & 1 for i in range(7)], jnp.int32)

    def body(i, carry):
        P, R = carry
        R = jnp.where(bits[i] == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        return P / jnp.linalg.norm(P), R

    _, R = jax.lax.fori_loop(0, 7, body, (M, jnp.eye(W.shape[1], dtype=W.dtype)))
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
