"""spectral_norm: the forward in the reference's fori_loop, inside a ``jax.custom_jvp`` whose JVP
rule runs the K power-iteration steps again unrolled in Python (K is a number) to get u and v.
The judge's vjp and jvp are traced into the program the rules read, the JVP rule included, and
under them the value is the rule's: no loop computes the output, and the program grows with K.

Problem: spectral_norm
Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    @jax.custom_jvp
    def sigma(W):
        u, v = jax.lax.fori_loop(0, K, lambda _, c: _step(W, c[0]), (u0, jnp.zeros(W.shape[1], W.dtype)))
        return u @ W @ v

    @sigma.defjvp
    def _rule(primals, tangents):
        (W,), (dW,) = primals, tangents
        u, v = u0, jnp.zeros(W.shape[1], W.dtype)
        for _ in range(K):
            u, v = _step(W, u)
        return u @ W @ v, u @ dW @ v

    return sigma(W)
