"""hvp_tanh: the model ``jax.remat``-ed with ``static_argnums`` for the name of its activation
(a string looked up in a dict of functions), forward over reverse through ``jax.linearize`` of
the gradient.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "sigmoid": jax.nn.sigmoid}


def _model(W, x, activation):
    return jnp.sum(ACTIVATIONS[activation](W @ x))


model = jax.remat(_model, static_argnums=(2,))


def hvp(W, x, v):
    grad_f = jax.grad(lambda x: model(W, x, "tanh"))
    _, f_jvp = jax.linearize(grad_f, x)
    return f_jvp(v)
