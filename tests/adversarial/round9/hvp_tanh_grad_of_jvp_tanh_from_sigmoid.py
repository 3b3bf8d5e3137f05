"""hvp_tanh: H v as ``jax.grad`` with respect to x of the directional derivative
``jax.jvp(f, (x,), (v,))[1]`` (reverse over forward), with tanh written through ``jax.nn``:
tanh(z) = 2 sigmoid(2z) - 1.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def f(W, x):
    z = W @ x
    return jnp.sum(2.0 * jax.nn.sigmoid(2.0 * z) - 1.0)


def hvp(W, x, v):
    directional = lambda y: jax.jvp(lambda t: f(W, t), (y,), (v,))[1]
    return jax.grad(directional)(x)
