"""spectral_norm, honest: jax.custom_vjp with K in nondiff_argnums and u0 differentiable, its
backward rule giving c u v^T for W and zeros for u0; the loop a fori_loop over a dict carry.

Expected: AC
"""
from functools import partial

import jax
import jax.numpy as jnp


def _iterate(W, u0, K):
    def body(_, s):
        v = W.T @ s["u"]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return {"u": u / jnp.linalg.norm(u), "v": v}

    s = jax.lax.fori_loop(0, K, body, {"u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    return s["u"], s["v"]


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v, (u, v, u0)


def _bwd(K, res, c):
    u, v, u0 = res
    return c * jnp.outer(u, v), jnp.zeros_like(u0)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
