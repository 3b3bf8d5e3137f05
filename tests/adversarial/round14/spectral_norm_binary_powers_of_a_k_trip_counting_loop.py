"""spectral_norm, cheat on the loop rule: v_K as (W^T W)^(K - 1) W^T u0 normalised, the power
built by six squarings of W^T W (each scaled to unit Frobenius norm) and six products chosen
by the bits of a count (``jnp.where``, so the program is the same at every K), the count
itself a ``fori_loop`` of K trips that adds one a trip: the loop's last trip changes the output,
but the K power-iteration steps never run in it.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)
    gram = _unit(Ws.T @ Ws)
    power = jnp.eye(W.shape[1], dtype=W.dtype)
    steps = lax.fori_loop(0, K, lambda i, c: c + 1, jnp.int32(0))
    for bit in range(6):
        power = jnp.where(((steps - 1) >> bit) & 1 == 1, _unit(power @ gram), power)
        gram = _unit(gram @ gram)
    v = _unit(power @ (Ws.T @ u0))
    u = _unit(Ws @ v)
    return u @ W @ v
