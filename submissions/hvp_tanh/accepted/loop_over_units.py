"""Honest: a Python loop over the m tanh units (m <= 16), not over the coordinates: each unit
adds w_i * tanh''(u_i) * (w_i . v). The program grows with m, never with d."""
import jax.numpy as jnp


def hvp(W, x, v):
    out = jnp.zeros_like(x)
    for i in range(W.shape[0]):
        w = W[i]
        t = jnp.tanh(w @ x)
        out = out + w * (-2.0 * t * (1.0 - t * t)) * (w @ v)
    return out
