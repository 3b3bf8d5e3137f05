"""hvp_tanh: the model as a ``jax.tree_util.Partial`` of the loss over W (a pytree-valued
callable passed to a generic ``hvp(f, x, v)`` helper), forward over reverse: ``jax.jvp`` of
``jax.grad(f)``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def loss(W, x):
    return jnp.sum(jnp.tanh(W @ x))


def generic_hvp(f, x, v):
    return jax.jvp(jax.grad(f), (x,), (v,))[1]


def hvp(W, x, v):
    return generic_hvp(Partial(loss, W), x, v)
