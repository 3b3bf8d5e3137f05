"""The closed form with einsum and sech^2 = 1 - tanh^2 written through cosh: the derivative of
sech^2(z) is -2 tanh(z) sech^2(z).

Expected verdict: accepted.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    z = jnp.einsum("md,d->m", W, x)
    sech2 = 1.0 / jnp.cosh(z) ** 2
    curvature = -2.0 * jnp.tanh(z) * sech2
    return jnp.einsum("m,md->d", curvature * jnp.einsum("md,d->m", W, v), W)
