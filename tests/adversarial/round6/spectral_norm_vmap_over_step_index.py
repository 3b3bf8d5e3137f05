"""spectral_norm: ``jax.vmap`` over a batch of K step indices, each lane raising W^T W to its
own index by a fixed 7-trip squaring loop, and the lane K - 1 read: the steps are a batch, not
a loop; a K-long ``lax.scan`` over the lanes' norms is only a decoy.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def _power(M, e):
    def bit(i, acc):
        P, Q = acc
        P = jnp.where((e >> i) & 1 == 1, P @ Q, P)
        return P / jnp.max(jnp.abs(P)), (Q @ Q) / jnp.max(jnp.abs(Q @ Q))

    P, _ = jax.lax.fori_loop(0, 7, bit, (jnp.eye(M.shape[0], dtype=M.dtype), M))
    return P


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    powers = jax.vmap(lambda e: _power(M, e))(jnp.arange(K))
    total, _ = jax.lax.scan(lambda c, P: (c + jnp.sum(P) * 0.0, None), jnp.float32(0.0), powers)
    v = powers[-1] @ (Wc.T @ u0) + total
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
