"""spectral_norm: a ``jax.custom_jvp`` (K non-differentiable) whose rule gives u^T dW v, the
judge's ``jax.vjp`` transposing it; the loop keeps a dict carry.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from functools import partial

import jax
import jax.numpy as jnp


def _vectors(W, u0, K):
    def step(_, c):
        v = W.T @ c["u"]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return {"u": u / jnp.linalg.norm(u), "v": v}

    out = jax.lax.fori_loop(0, K, step, {"u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    return out["u"], out["v"]


@partial(jax.custom_jvp, nondiff_argnums=(2,))
def spectral_norm(W, u0, K):
    u, v = _vectors(W, u0, K)
    return u @ W @ v


@spectral_norm.defjvp
def _spectral_norm_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents
    u, v = _vectors(W, u0, K)
    return u @ W @ v, u @ dW @ v
