"""spectral_norm: two steps per loop iteration (a hand-unrolled body) for K // 2 iterations,
and the odd step in a ``lax.cond`` after it: every step runs in a loop or a branch primitive,
and the program is the same for every K.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def two(_, carry):
        u, _ = _step(Wc, carry[0])
        return _step(Wc, u)

    u, v = jax.lax.fori_loop(0, K // 2, two, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.cond(K % 2 == 1, lambda c: _step(Wc, c[0]), lambda c: c, (u, v))
    return u @ W @ v
