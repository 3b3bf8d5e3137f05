"""spectral_norm: a small class holding the step count, its ``__call__`` built from a
``functools.partial`` of a step function and a ``lax.scan`` that also stacks each step's sigma
(the last one is returned); the answer squeezed to shape ().

Problem: spectral_norm
Expected: AC
Cases: all
"""

import functools

import jax
import jax.numpy as jnp


def _step(W, carry, _):
    u, _ = carry
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    u = u / jnp.linalg.norm(u)
    return (u, v), u @ W @ v


class PowerIteration:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, W, u0):
        body = functools.partial(_step, jax.lax.stop_gradient(W))
        (u, v), sigmas = jax.lax.scan(body, (u0, jnp.zeros(W.shape[1])), None, length=self.steps)
        del sigmas
        return (u[None, :] @ W @ v[:, None]).squeeze()


def spectral_norm(W, u0, K):
    return PowerIteration(K)(W, u0)
