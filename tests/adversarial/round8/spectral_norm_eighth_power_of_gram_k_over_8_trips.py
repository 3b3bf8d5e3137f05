"""spectral_norm: the Gram matrix A = W^T W raised to the 8th power by three squarings outside the
loop, then K // 8 trips of one multiplication by A^8 (eight steps' worth, normalized) and the
remaining K mod 8 steps in a second loop: the loop runs K / 8 times, within "up to 8 steps to a
trip", but a trip does one matrix-vector product where eight steps do sixteen.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    A = W.T @ W
    A8 = A
    for _ in range(3):
        A8 = A8 @ A8
        A8 = A8 / jnp.max(jnp.abs(A8))
    v = _unit(W.T @ u0)
    # v after step k+1 is A^k v_1, normalized
    v = lax.fori_loop(0, (K - 1) // 8, lambda _, x: _unit(A8 @ x), v)
    v = lax.fori_loop(0, (K - 1) % 8, lambda _, x: _unit(A @ x), v)
    u = _unit(W @ v)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
