"""clip_by_global_norm: ported from TensorFlow's ``tf.clip_by_global_norm``: ``reduce_sum`` and
``global_norm`` wrappers, the factor ``max_norm / maximum(norm, max_norm)``, the norm made safe
at zero with ``jnp.where`` guards around the square root, a list of leaves in, a list out,
and the tree rebuilt with ``jax.tree_util.tree_unflatten``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def reduce_sum(x, axis=None):
    return jnp.sum(x, axis=axis)


def global_norm(t_list):
    total = reduce_sum(jnp.stack([reduce_sum(jnp.square(t)) for t in t_list]))
    safe = jnp.where(total > 0.0, total, 1.0)
    return jnp.where(total > 0.0, jnp.sqrt(safe), 0.0)


def clip_list_by_global_norm(t_list, clip_norm):
    use_norm = global_norm(t_list)
    scale = clip_norm / jnp.maximum(use_norm, clip_norm)
    return [t * scale for t in t_list], use_norm


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    clipped, _ = clip_list_by_global_norm(leaves, max_norm)
    return jax.tree_util.tree_unflatten(treedef, clipped)
