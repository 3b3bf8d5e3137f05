"""spectral_norm: the rule's own traces are made at the first example's concrete shapes, the
cases' programs with m and n as symbols. At concrete shapes this module loops (lax.fori_loop)
for every K; traced with symbols it unrolls the K steps in Python where K is at most 20 (under
the equation cap) beside a loop that only counts, and loops above. The program at a case's K
and the one at a K drawn at random then differ in length wherever one is at most 20 and the
other above.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def _step(Wc, u):
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    start = (u0, jnp.zeros(W.shape[1], W.dtype))
    if all(isinstance(d, int) for d in W.shape) or K > 20:
        u, v = jax.lax.fori_loop(0, K, lambda _, c: _step(Wc, c[0]), start)
    else:
        u, v = start
        for _ in range(K):
            u, v = _step(Wc, u)
        u = u + 0.0 * jax.lax.fori_loop(0, K, lambda i, c: c + 1.0, jnp.float32(0.0))
    return u @ W @ v
