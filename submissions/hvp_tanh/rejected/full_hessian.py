"""Builds the full d x d Hessian with jax.hessian and multiplies it by v. Right for small d,
d * d memory and time for large d.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    H = jax.hessian(lambda z: jnp.sum(jnp.tanh(W @ z)))(x)
    return H @ v
