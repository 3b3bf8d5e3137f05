"""Honest: every leaf raveled and concatenated, jnp.linalg.norm of the long vector with the
all-zero case kept away from it, and the leaves rebuilt with tree_unflatten."""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    flat = jnp.concatenate([jnp.ravel(leaf) for leaf in leaves])
    all_zero = jnp.all(flat == 0)
    g = jnp.linalg.norm(jnp.where(all_zero, jnp.ones_like(flat), flat))
    g = jnp.where(all_zero, 0.0, g)
    scale = jnp.where(g > max_norm, max_norm / g, 1.0)
    return jax.tree_util.tree_unflatten(treedef, [leaf * scale for leaf in leaves])
