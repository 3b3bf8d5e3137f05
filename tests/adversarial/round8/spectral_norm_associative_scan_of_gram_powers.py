"""spectral_norm: K - 1 copies of the normalized Gram matrix multiplied together by
``lax.associative_scan`` (a tree of products, log K deep, written out by JAX as it traces), the
last prefix applied to the first v; a loop of K trips beside that only counts. The products
grow with log K in the program, not in a loop.

Problem: spectral_norm
Expected: RJ
"""
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    A = W.T @ W
    A = A / jnp.linalg.norm(A)
    stack = jnp.broadcast_to(A, (K - 1,) + A.shape) if K > 1 else None
    v = _unit(W.T @ u0)
    if stack is not None:
        prods = lax.associative_scan(lambda a, b: jnp.matmul(b, a), stack)
        v = _unit(prods[-1] @ v)
    count = lax.fori_loop(0, K, lambda i, c: c + 1.0, 0.0)
    u = _unit(W @ v)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v + 0.0 * count
