"""Honest: the dict it is given updated in place, key by key (recursing into nested dicts),
and returned."""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    scale = max_norm / jnp.maximum(norm, max_norm)

    def scale_in_place(tree):
        for key in tree:
            if isinstance(tree[key], dict):
                scale_in_place(tree[key])
            else:
                tree[key] = tree[key] * scale
    scale_in_place(grads)     # updates the dict it was given
    return grads
