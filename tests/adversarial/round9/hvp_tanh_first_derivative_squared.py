"""hvp_tanh: a plausible wrong answer: the student uses the curvature tanh'(z)^2 (a
Gauss-Newton-like term: sech^4) instead of tanh''(z), in closed form with ``jnp.cosh``.

Problem: hvp_tanh
Expected: WA
"""
import jax.numpy as jnp


def hvp(W, x, v):
    z = W @ x
    sech2 = 1.0 / jnp.cosh(z) ** 2
    return W.T @ (sech2 * sech2 * (W @ v))
