"""hvp_tanh: a Python loop over the m units (m is a number: "a loop over the m units is
fine"), each unit's H v by ``jax.jvp`` of ``jax.grad`` of ``tanh(w . x)``, summed.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    out = jnp.zeros_like(x)
    for i in range(W.shape[0]):
        w = W[i]
        g = jax.grad(lambda z: jnp.tanh(jnp.dot(w, z)))
        out = out + jax.jvp(g, (x,), (v,))[1]
    return out
