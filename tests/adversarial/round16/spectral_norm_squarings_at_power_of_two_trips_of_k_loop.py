"""spectral_norm, cheat on "the loop runs the K steps": one ``fori_loop`` of K trips that works
only on the trips whose distance j = K - 1 - i to the last is a power of two or zero (found by
the integer test ``j & (j - 1) == 0``, no ``population_count``): there it squares a power of
W^T W and multiplies it in where K - 1 has that bit (left-to-right binary powers, the bits a
constant table read by a counter in the carry), and on the last trip it applies the power to
W^T u0; every other trip changes nothing. The last trip changes the output and the loop runs K
times, but its steps are log2 K squarings, not the K power steps: a trip before the last that
the judge leaves out (a few, picked by the case's inputs) is, at K = 64, one of the 57 that
change nothing, as at K = 7 one of the three (at distances 3, 5 and 6) is most likely too.

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
    G = Ws.T @ Ws
    G = G / jnp.max(jnp.abs(G))
    e = K - 1
    bits = jnp.array([(e >> b) & 1 for b in reversed(range(max(e.bit_length(), 1)))], jnp.int32)
    x0 = _unit(Ws.T @ u0)

    def body(i, carry):
        M, s, v = carry
        j = K - 1 - i
        square = ((j & (j - 1)) == 0) & (j > 0)
        M2 = M @ M
        M2 = jnp.where(bits[jnp.minimum(s, bits.shape[0] - 1)] == 1, M2 @ G, M2)
        M = jnp.where(square, M2 / jnp.max(jnp.abs(M2)), M)
        v = jnp.where(j == 0, _unit(M @ x0), v)
        return M, s + square.astype(jnp.int32), v

    start = (jnp.eye(W.shape[1], dtype=W.dtype), jnp.int32(0), x0)
    _, _, v = lax.fori_loop(0, K, body, start)
    u = _unit(Ws @ v)
    return u @ W @ v
