"""hvp_tanh: a Python loop over the m units (m is the case's own number: allowed), each unit's
contribution written in closed form: tanh''(z_i) (w_i . v) w_i with
tanh''(z) = -2 tanh(z) (1 - tanh(z)^2), accumulated into a (d,) vector.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    out = jnp.zeros_like(x)
    for i in range(W.shape[0]):
        w = W[i]
        t = jnp.tanh(jnp.dot(w, x))
        out = out + (-2.0 * t * (1.0 - t * t)) * jnp.dot(w, v) * w
    return out
