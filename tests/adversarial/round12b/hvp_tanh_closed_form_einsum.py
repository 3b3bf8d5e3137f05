"""hvp_tanh: the closed form H v = W^T diag(f''(Wx)) W v with f'' of tanh = -2 tanh sech^2,
by ``jnp.einsum``; ``z = W @ x``, ``s = tanh(z)``, ``(-2 s (1 - s^2) * (W @ v)) @ W``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    z = W @ x
    s = jnp.tanh(z)
    curvature = -2.0 * s * (1.0 - s * s)
    return jnp.einsum("m,md->d", curvature * (W @ v), W)
