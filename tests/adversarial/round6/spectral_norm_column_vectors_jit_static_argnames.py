"""spectral_norm: the graded function itself under ``jax.jit`` with ``static_argnames=("K",)``,
u and v kept as (m, 1) and (n, 1) columns through the loop, sigma the [0, 0] entry of
``u.T @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("K",))
def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = Ws.T @ u
        v = v / jnp.sqrt((v * v).sum())
        u = Ws @ v
        return u / jnp.sqrt((u * u).sum()), v

    u, v = jax.lax.fori_loop(0, K, body, (u0[:, None], jnp.zeros((W.shape[1], 1), W.dtype)))
    return (u.T @ W @ v)[0, 0]
