"""per_example_clip: a tree-level clip helper (optax's clip_by_global_norm, for one tree) applied
to each example's gradient tree {"w", "b"} under ``jax.vmap``, the mean by ``jax.tree.map``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _clip_tree(tree, max_norm):
    leaves = jax.tree.leaves(tree)
    norm = jnp.sqrt(sum(jnp.sum(jnp.square(leaf)) for leaf in leaves))
    trigger = norm < max_norm
    scale = jnp.where(trigger, 1.0, max_norm / jnp.where(trigger, 1.0, norm))
    return jax.tree.map(lambda leaf: leaf * scale, tree)


def _loss(params, x, t):
    return 0.5 * jnp.square(x @ params["w"] + params["b"] - t)


def clipped_mean_grad(w, b, X, y, clip_norm):
    per_example = jax.vmap(jax.grad(_loss), in_axes=(None, 0, 0))({"w": w, "b": b}, X, y)
    clipped = jax.vmap(lambda g: _clip_tree(g, clip_norm))(per_example)
    mean = jax.tree.map(lambda a: jnp.mean(a, axis=0), clipped)
    return {"grad_w": mean["w"], "grad_b": mean["b"]}
