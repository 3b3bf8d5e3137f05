"""Honest: the whole tree raveled into one vector with jax.flatten_util.ravel_pytree,
jnp.linalg.norm of a guarded vector, and the scaled vector unraveled back into the tree."""
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def clip_by_global_norm(grads, max_norm):
    flat, unravel = ravel_pytree(grads)
    nonzero = jnp.any(flat != 0)
    # at an all-zero vector the norm is taken of a vector of ones, then thrown away
    norm = jnp.where(nonzero, jnp.linalg.norm(jnp.where(nonzero, flat, 1.0)), 0.0)
    scale = jnp.minimum(1.0, max_norm / jnp.where(nonzero, norm, max_norm))
    return unravel(flat * scale)
