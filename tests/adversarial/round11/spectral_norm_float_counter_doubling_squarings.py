"""spectral_norm, cheat: (W W^T)^(K-1) by repeated squaring in a ``lax.while_loop`` whose
exponent is carried as a float and halved each trip (the matrices rescaled by their largest
entry), then v = W^T P u0 and u = W v normalised: the right iterate in log2 K trips, the
squarings the statement refuses, the counter a float in the hope it is not read as one.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    G = Wc @ Wc.T

    def body(s):
        e, P, B = s
        odd = jnp.mod(e, 2.0) > 0.5
        P = jnp.where(odd, B @ P, P)
        P = P / jnp.max(jnp.abs(P))
        B = B @ B
        B = B / jnp.max(jnp.abs(B))
        return jnp.floor(e / 2.0), P, B

    eye = jnp.eye(W.shape[0], dtype=W.dtype)
    _, P, _ = jax.lax.while_loop(lambda s: s[0] > 0.5, body, (jnp.float32(K - 1), eye, G))
    v = Wc.T @ (P @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
