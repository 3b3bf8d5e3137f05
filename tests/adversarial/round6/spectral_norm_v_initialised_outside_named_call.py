"""spectral_norm: the carry's v initialised from u0 outside the loop (v0 = W^T u0 normalised, a
half step whose value every first trip overwrites), the step a ``jax.named_call`` of a helper,
and K given to the loop as ``range(K)``'s length through ``len``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def _unit(x):
    return x / jnp.linalg.norm(x)


def _power_step(W, u):
    v = _unit(W.T @ u)
    return _unit(W @ v), v


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)
    step = jax.named_call(_power_step, name="power_step")
    v0 = _unit(Ws.T @ u0)
    u, v = jax.lax.fori_loop(0, len(range(K)), lambda i, uv: step(Ws, uv[0]), (u0, v0))
    return jnp.einsum("i,ij,j", u, W, v)
