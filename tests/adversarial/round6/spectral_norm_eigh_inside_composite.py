"""spectral_norm: the top eigenvector of W^T W by ``jnp.linalg.eigh`` inside a ``lax.composite``
named "power.warm_start" (one equation whose body holds the decomposition); the K steps then
start from W times it, so sigma is converged from the first step: wrong where the cases stop
early, and a decomposition the rules forbid.

Problem: spectral_norm
Expected: RJ forbidden_primitive
"""

import jax
import jax.numpy as jnp
from jax import lax

_top = lax.composite(lambda G: jnp.linalg.eigh(G)[1][:, -1], name="power.warm_start")


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    start = Wc @ _top(Wc.T @ Wc)
    start = start * jnp.sign(start @ u0 + 1e-30)

    def body(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (start, jnp.zeros(W.shape[1])))
    return u @ W @ v
