"""spectral_norm: the forward is the honest loop; the ``jax.custom_vjp`` backward computes
the gradient on the host with NumPy through ``jax.pure_callback``.

Problem: spectral_norm
Expected: RJ callback_used
"""

import jax
import jax.numpy as jnp
import numpy as np


def _loop(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


def _host_grad(W, u, v, c):
    return (np.asarray(c) * np.outer(np.asarray(u), np.asarray(v))).astype(np.float32)


def spectral_norm(W, u0, K):
    @jax.custom_vjp
    def sigma(W):
        u, v = _loop(W, u0, K)
        return u @ W @ v

    def fwd(W):
        u, v = _loop(W, u0, K)
        return u @ W @ v, (W, u, v)

    def bwd(res, c):
        W, u, v = res
        shape = jax.ShapeDtypeStruct(W.shape, W.dtype)
        return (jax.pure_callback(_host_grad, shape, W, u, v, c),)

    sigma.defvjp(fwd, bwd)
    return sigma(W)
