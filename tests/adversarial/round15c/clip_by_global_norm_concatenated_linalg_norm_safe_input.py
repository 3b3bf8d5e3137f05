"""clip_by_global_norm: every leaf flattened with ``x.reshape(-1)`` and concatenated, the norm by
``jnp.linalg.norm`` of that vector with the all-zero vector replaced by ones first (so its
square root never sees 0), the factor ``max_norm / max(norm, max_norm)``, and a ``__main__``
block.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    flat = jnp.concatenate([leaf.reshape(-1) for leaf in jax.tree_util.tree_leaves(grads)])
    nonzero = jnp.any(flat != 0)
    norm = jnp.linalg.norm(jnp.where(nonzero, flat, jnp.ones_like(flat)))
    scale = jnp.where(nonzero, max_norm / jnp.maximum(norm, max_norm), 1.0)
    return jax.tree_util.tree_map(lambda g: g * scale, grads)


if __name__ == "__main__":
    tree = {"w": jnp.array([3.0, 4.0]), "b": jnp.float32(0.0)}
    print(clip_by_global_norm(tree, 1.0))
