"""spectral_norm, honest: ``jnp.matmul(..., precision=lax.Precision.HIGHEST)`` for every product,
the vectors normalised by ``a * (1 / jnp.sqrt(jnp.sum(a ** 2)))``, a ``while_loop`` whose
counter is the last element of its carry, the vectors stopped with ``jax.tree.map``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

HI = lax.Precision.HIGHEST


def _unit(a):
    return a * (1.0 / jnp.sqrt(jnp.sum(a ** 2)))


def spectral_norm(W, u0, K):
    def body(c):
        u, v, i = c
        v = _unit(jnp.matmul(u, W, precision=HI))
        u = _unit(jnp.matmul(W, v, precision=HI))
        return u, v, i + 1

    u, v, _ = lax.while_loop(lambda c: c[2] < K, body, (u0, jnp.zeros_like(W[0]), jnp.int32(0)))
    u, v = jax.tree.map(lax.stop_gradient, (u, v))
    return jnp.matmul(u, jnp.matmul(W, v, precision=HI), precision=HI)
