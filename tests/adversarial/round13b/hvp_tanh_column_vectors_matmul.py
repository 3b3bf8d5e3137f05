"""hvp_tanh: the closed form with column vectors as a linear-algebra course writes it:
``v[:, None]`` and ``x[:, None]`` of shape (d, 1), products with ``W`` and ``W.T`` giving (m, 1)
and (d, 1), and the result squeezed back to (d,).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    u = W @ x[:, None]                      # (m, 1)
    t = jnp.tanh(u)
    s = -2.0 * t * (1.0 - t ** 2)           # (m, 1)
    return jnp.squeeze(W.T @ (s * (W @ v[:, None])), axis=1)
