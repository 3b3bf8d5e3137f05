"""spectral_norm: the first step written out before the loop (so the loop runs K - 1 trips, as
the statement allows), u0 normalised first (the steps do not depend on its length), the
matrix products by ``lax.dot_general``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp
from jax import lax


def _mv(A, x):
    return lax.dot_general(A, x, (((1,), (0,)), ((), ())))


def _normalise(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    Wd = lax.stop_gradient(W)
    u = _normalise(u0)
    v = _normalise(_mv(Wd.T, u))
    u = _normalise(_mv(Wd, v))

    def step(_, uv):
        u, _ = uv
        v = _normalise(_mv(Wd.T, u))
        return _normalise(_mv(Wd, v)), v

    u, v = lax.fori_loop(1, K, step, (u, v))
    return jnp.sum(u * _mv(W, v))
