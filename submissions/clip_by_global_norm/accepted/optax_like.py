"""Honest: optax's shape (a global_norm helper, a trigger, tree_map over the leaves) with a
safe norm: the sum of squares is replaced by 1 under the square root when it is 0."""
import jax
import jax.numpy as jnp


def global_norm(tree):
    sq = sum(jnp.sum(jnp.square(x)) for x in jax.tree_util.tree_leaves(tree))
    positive = sq > 0
    return jnp.where(positive, jnp.sqrt(jnp.where(positive, sq, 1.0)), 0.0)


def clip_by_global_norm(grads, max_norm):
    g = global_norm(grads)
    trigger = g < max_norm
    safe_g = jnp.where(trigger, 1.0, g)

    def clip(t):
        return jnp.where(trigger, t, (t / safe_g) * max_norm)

    return jax.tree_util.tree_map(clip, grads)
