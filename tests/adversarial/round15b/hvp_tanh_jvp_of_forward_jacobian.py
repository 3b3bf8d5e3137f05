"""hvp_tanh: a near miss (honest code, wrong tool): ``jax.jvp`` of ``jax.jacfwd(f)`` along v:
jacfwd pushes a (d, d) basis of tangents through f, a value that grows as d^2.

Problem: hvp_tanh
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda x: jnp.sum(jnp.tanh(W @ x))
    return jax.jvp(jax.jacfwd(f), (x,), (v,))[1]
