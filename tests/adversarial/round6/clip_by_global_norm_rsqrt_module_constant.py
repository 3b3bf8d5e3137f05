"""clip_by_global_norm: ``lax.rsqrt`` of the squared norm with a module-level tiny floor only
under a ``jnp.where`` that discards it, the scale as ``jnp.minimum(1, max_norm * rsqrt)``,
and a dict comprehension recursing into nested dicts by hand.

Problem: clip_by_global_norm
Expected: AC
"""

import jax.numpy as jnp
from jax import lax

ONE = jnp.float32(1.0)


def _leaves(tree):
    for value in tree.values():
        if isinstance(value, dict):
            yield from _leaves(value)
        else:
            yield value


def _scale(tree, s):
    return {k: _scale(v, s) if isinstance(v, dict) else v * s for k, v in tree.items()}


def clip_by_global_norm(grads, max_norm):
    sq = jnp.float32(0.0)
    for leaf in _leaves(grads):
        sq = sq + jnp.einsum("...,...->", leaf, leaf)
    nonzero = sq != 0
    inv = lax.rsqrt(jnp.where(nonzero, sq, ONE))
    s = jnp.where(nonzero, jnp.minimum(ONE, max_norm * inv), ONE)
    return _scale(grads, s)
