"""hvp_tanh: ``jax.vmap(jax.grad(jax.grad(jnp.tanh)))`` for tanh'' per unit, the rest with
``jnp.matmul``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

tanh2 = jax.vmap(jax.grad(jax.grad(jnp.tanh)))


def hvp(W, x, v):
    return jnp.matmul(tanh2(jnp.matmul(W, x)) * jnp.matmul(W, v), W)
