"""spectral_norm: ``jax.lax.fori_loop(0, K, ...)`` with the step a keyword-only function bound
by ``functools.partial``, ``jnp.linalg.norm(..., keepdims=True)`` for the divisions, sigma by
``jnp.einsum("m,mn,n->", ...)`` on stopped vectors, a docstring and a ``__main__`` self-test.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _step(_, carry, *, mat):
    u, _ = carry
    v = mat.T @ u
    v = v / jnp.linalg.norm(v, keepdims=True)
    u = mat @ v
    return u / jnp.linalg.norm(u, keepdims=True), v


def spectral_norm(W, u0, K):
    """Largest singular value of W by K power-iteration steps from u0."""
    init = (u0, jnp.zeros(W.shape[1], jnp.float32))
    u, v = jax.lax.fori_loop(0, K, partial(_step, mat=W), init)
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.einsum("m,mn,n->", u, W, v)


if __name__ == "__main__":
    print(spectral_norm(jnp.eye(3) * 2.0, jnp.ones(3), 5))
