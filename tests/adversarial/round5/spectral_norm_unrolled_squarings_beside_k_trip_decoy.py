"""spectral_norm: the 7 squarings written out in Python (a fixed count: the program does not grow
with K), and beside them a ``fori_loop`` of K trips that multiplies a number by W[0, 0] / W[0, 0],
added to the result minus one: the only loop runs K times and is the loop doing the most work
per trip, though the K steps never run.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the only loop, stopped one trip early, leaves the output the same on every case
  (the number it multiplies keeps its value on moved data too: it only counts)
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    P = Wc.T @ Wc
    P = P / jnp.linalg.norm(P)
    R = jnp.eye(W.shape[1], dtype=W.dtype)
    for i in range(7):
        # the same equations at every K: the bit of K - 1 chooses, as data
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        P = P / jnp.linalg.norm(P)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    decoy = jax.lax.fori_loop(0, K, lambda i, c: c * (Wc[0, 0] / Wc[0, 0]), jnp.float32(1.0))
    return u @ W @ v + (decoy - 1.0)
