"""clip_by_global_norm: PyTorch's ``clip_grad_norm_`` shape: each leaf divided by ``g / max_norm``
only where ``g > max_norm`` (``jnp.where``), the norm by the double-where trick on
``jnp.sqrt``, and the leaves walked with ``jax.tree_util.tree_map_with_path`` (the path unused).

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    total = jnp.sum(jnp.stack([jnp.sum(jnp.square(l)) for l in jax.tree.leaves(grads)]))
    nonzero = total > 0.0
    norm = jnp.where(nonzero, jnp.sqrt(jnp.where(nonzero, total, 1.0)), 0.0)
    clip = norm > max_norm
    ratio = jnp.where(clip, norm / max_norm, 1.0)
    return jax.tree_util.tree_map_with_path(lambda path, l: jnp.where(clip, l / ratio, l), grads)
