"""hvp_tanh: the closed form written out, H v = W^T (f''(z) * (W v)) with z = W x and
f''(z) = -2 tanh(z) (1 - tanh(z)^2), as two matrix-vector products and an elementwise product
of m entries, ``jnp.einsum`` for both products.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(jnp.einsum("md,d->m", W, x))
    curvature = -2.0 * t * (1.0 - t * t)
    return jnp.einsum("md,m->d", W, curvature * jnp.einsum("md,d->m", W, v))
