"""hvp_tanh: the model wrapped in ``jax.checkpoint`` with the ``dots_saveable`` policy (as one
would for memory), then forward over reverse: ``jax.jvp`` of ``jax.grad``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    @jax.checkpoint
    def units(x):
        return jnp.tanh(jnp.dot(W, x))

    units = jax.checkpoint(units, policy=jax.checkpoint_policies.dots_saveable)

    def f(x):
        return units(x).sum()

    return jax.jvp(jax.grad(f), (x,), (v,))[1]
