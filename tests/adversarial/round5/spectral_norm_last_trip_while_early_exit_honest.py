"""spectral_norm, honest: a ``lax.while_loop`` on ``(i < K) & (moved > 1e-7)``, ``moved`` the
largest change of u in the last step: an early exit once the iteration has converged in float32,
which leaves sigma within the tolerance of the K steps'. On the cases that have not converged
the loop runs all K trips, and its last trip moves the output. stop_gradient on W first.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        un = Wc @ v
        un = un / jnp.linalg.norm(un)
        return i + 1, un, v, jnp.max(jnp.abs(un - u))

    start = (0, u0, jnp.zeros(W.shape[1], W.dtype), jnp.float32(jnp.inf))
    _, u, v, _ = jax.lax.while_loop(lambda s: (s[0] < K) & (s[3] > 1e-7), body, start)
    return u @ W @ v
