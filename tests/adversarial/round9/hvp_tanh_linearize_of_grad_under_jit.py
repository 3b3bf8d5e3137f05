"""hvp_tanh: f written with ``jnp.einsum`` and ``jnp.tanh``; ``jax.linearize`` of ``jax.grad(f)``
at x gives a linear function that is applied to v; all of it under ``jax.jit``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(jnp.einsum("md,d->m", W, z)))
    _, f_lin = jax.linearize(jax.grad(f), x)
    return f_lin(v)
