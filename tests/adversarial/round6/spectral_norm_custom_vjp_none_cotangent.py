"""spectral_norm: a ``jax.custom_vjp`` whose backward rule returns ``None`` for u0's cotangent (JAX
reads it as zeros) and the outer product built by broadcasting, ``c * u[:, None] * v[None, :]``;
K non-differentiable, the forward a ``while_loop`` on a stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from functools import partial

import jax
import jax.numpy as jnp


def _iterate(W, u0, K):
    def cond(s):
        return s[0] < K

    def body(s):
        i, u, _ = s
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u, v


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def spectral_norm(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v, (u, v)


def _bwd(K, res, c):
    u, v = res
    return c * u[:, None] * v[None, :], None


spectral_norm.defvjp(_fwd, _bwd)
