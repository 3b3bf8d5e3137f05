"""hvp_tanh: a ``dataclass`` ``TanhLayer`` holding W, with methods for the pre-activations and
the curvature per unit; the product in closed form, W^T (tanh''(W x) * (W v)), with
``jnp.dot(..., precision="highest")``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class TanhLayer:
    W: jax.Array

    def pre(self, x: jax.Array) -> jax.Array:
        return jnp.dot(self.W, x, precision="highest")

    def curvature(self, x: jax.Array) -> jax.Array:
        t = jnp.tanh(self.pre(x))
        return -2.0 * t * (1.0 - t * t)

    def hvp(self, x: jax.Array, v: jax.Array) -> jax.Array:
        return jnp.dot(self.W.T, self.curvature(x) * self.pre(v), precision="highest")


def hvp(W, x, v):
    return TanhLayer(W).hvp(x, v)
