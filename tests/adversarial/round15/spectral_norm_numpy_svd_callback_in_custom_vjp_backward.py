"""spectral_norm, cheat: the value from an honest ``fori_loop``, the derivative from a
``custom_vjp`` whose backward rule asks NumPy for the singular vectors through
``jax.pure_callback`` (kept in a module-level dict, never named where it is called): a
callback that only the derivative's program holds.

Problem: spectral_norm
Expected: RJ callback_used
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

TOOLS = {"host": jax.pure_callback}


def _unit(a):
    return a / jnp.linalg.norm(a)


def _power(W, u0, K):
    def body(_, uv):
        v = _unit(W.T @ uv[0])
        return _unit(W @ v), v

    return jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v, (W, u, v, u0)


def _host_outer(W, u, v):
    a, _, bt = np.linalg.svd(np.asarray(W))
    s = np.sign(np.dot(a[:, 0], np.asarray(u))) or 1.0
    return (s * np.outer(a[:, 0], bt[0])).astype(np.float32)


def _bwd(K, res, c):
    W, u, v, u0 = res
    outer = TOOLS["host"](_host_outer, jax.ShapeDtypeStruct(W.shape, W.dtype), W, u, v)
    return c * outer, jnp.zeros_like(u0)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
