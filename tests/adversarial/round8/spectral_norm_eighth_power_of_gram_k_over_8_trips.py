"""spectral_norm: the Gram matrix A = W^T W raised to the 8th power by three squarings outside the
loop, then K // 8 trips of one multiplication by A^8 (eight steps' worth, normalized) and the
remaining K mod 8 steps in a second loop: the loop runs K / 8 times, within "up to 8 steps to a
trip", but a trip does one matrix-vector product where eight steps do sixteen.

Problem: spectral_norm
Expected: AC
Cases: all
Open: RJ unrolled_loop: where K - 1 < 8 the loop of eight steps a trip runs no trip, and the
  loop of the rest, as heavy a trip, is read as the loop of the steps at that K (one trip at
  K = 2, against 7 of the other at K = 60: too little growth); a loop of no trip is not set
  aside when the trips of the loop doing the most work are read
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
