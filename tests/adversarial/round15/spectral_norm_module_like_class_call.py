"""spectral_norm, honest: a module-like class (no framework) holding K, with a ``__call__`` that
runs the iteration in ``lax.scan`` and a ``sigma`` method; the function builds it and calls it.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class SpectralNorm:
    def __init__(self, steps):
        self.steps = steps

    @staticmethod
    def _unit(a):
        return a / jnp.linalg.norm(a)

    def __call__(self, W, u0):
        def one(carry, _):
            u, _v = carry
            v = self._unit(W.T @ u)
            return (self._unit(W @ v), v), None

        (u, v), _ = jax.lax.scan(one, (u0, jnp.zeros_like(W[0])), None, length=self.steps)
        return jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)

    def sigma(self, W, u0):
        u, v = self(W, u0)
        return u @ (W @ v)


def spectral_norm(W, u0, K):
    return SpectralNorm(K).sigma(W, u0)
