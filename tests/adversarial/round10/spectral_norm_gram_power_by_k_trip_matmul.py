"""spectral_norm: the student builds G^(K-1) with G = W^T W by a ``fori_loop`` of K - 1 matrix
products (one power per trip), then v = G^(K-1) W^T u0 normalised and u = W v normalised: the
same iterate, K - 1 trips (a trip per step, with a matrix product instead of two matvecs).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wd = jax.lax.stop_gradient(W)
    G = Wd.T @ Wd
    G = G / jnp.linalg.norm(G)

    def body(_, P):
        P = P @ G
        return P / jnp.linalg.norm(P)

    P = jax.lax.fori_loop(0, K - 1, body, jnp.eye(W.shape[1], dtype=W.dtype))
    v = P @ (Wd.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wd @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
