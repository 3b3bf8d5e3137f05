"""hvp_tanh: the model takes its input as a dict ``{"x": x}``; ``jax.grad`` gives a dict back,
and ``jax.jvp`` of that gradient along ``{"x": v}`` gives the dict whose ``"x"`` is H v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(inputs):
        return jnp.sum(jnp.tanh(W @ inputs["x"]))

    _, hv = jax.jvp(jax.grad(f), ({"x": x},), ({"x": v},))
    return hv["x"]
