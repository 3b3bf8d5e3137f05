"""hvp_tanh: ``from __future__ import annotations`` with ``jax.Array`` hints, ``f`` by
``jnp.einsum("md,d->m", ...)``, the product by ``jax.linearize`` of ``jax.grad(f)`` applied to
``v``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def hvp(W: jax.Array, x: jax.Array, v: jax.Array) -> jax.Array:
    def f(z: jax.Array) -> jax.Array:
        return jnp.sum(jnp.tanh(jnp.einsum("md,d->m", W, z)))

    _, hessian_times = jax.linearize(jax.grad(f), x)
    return hessian_times(v)
