"""The VJP of the gradient with cotangent v, which is H^T v = H v since the Hessian is
symmetric.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def _loss(W, z):
    return jnp.sum(jnp.tanh(W @ z))


def hvp(W, x, v):
    _, pullback = jax.vjp(jax.grad(_loss, argnums=1), W, x)
    return pullback(v)[1]
