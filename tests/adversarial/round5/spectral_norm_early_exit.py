"""spectral_norm: a ``while_loop`` that stops as soon as u moves by less than 1e-3, before K
steps: right where the iteration converges fast, wrong where the two largest singular values
are close and K steps are not yet converged.

Problem: spectral_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(carry):
        i, u, _, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        un = Wc @ v
        un = un / jnp.linalg.norm(un)
        return i + 1, un, v, jnp.linalg.norm(un - u)

    def cond(carry):
        i, _, _, moved = carry
        return (i < K) & (moved > 1e-3)

    _, u, v, _ = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype), jnp.float32(1.0)))
    return u @ W @ v
