"""clip_by_global_norm: each leaf chosen by ``jnp.where(clip, leaf * factor, leaf)`` with the
factor's denominator guarded (``where(clip, g, 1)``) and the norm's square root guarded at zero,
the leaves walked by a recursive function over the nested dicts.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def _walk(tree, fn):
    if isinstance(tree, dict):
        return {k: _walk(v, fn) for k, v in tree.items()}
    return fn(tree)


def _leaves(tree):
    if isinstance(tree, dict):
        return [leaf for v in tree.values() for leaf in _leaves(v)]
    return [tree]


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.vdot(leaf, leaf) for leaf in _leaves(grads))
    nz = sq > 0
    g = jnp.where(nz, jnp.sqrt(jnp.where(nz, sq, 1.0)), 0.0)
    clip = g > max_norm
    factor = max_norm / jnp.where(clip, g, 1.0)
    return _walk(grads, lambda leaf: jnp.where(clip, leaf * factor, leaf))
