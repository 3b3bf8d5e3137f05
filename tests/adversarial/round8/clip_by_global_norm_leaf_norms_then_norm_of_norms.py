"""clip_by_global_norm: each leaf's own ``jnp.linalg.norm``, then the norm of those norms, the
all-zero tree sent by a ``lax.cond`` to a branch that returns it unchanged (so no norm is
differentiated there). A tree that is not all zero but has one all-zero leaf still
differentiates that leaf's norm at 0: NaN in its VJP, where the formula's VJP is finite.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _clip(grads, max_norm):
    norms = jnp.stack([jnp.linalg.norm(leaf) for leaf in jax.tree.leaves(grads)])
    g = jnp.linalg.norm(norms)
    scale = jnp.minimum(1.0, max_norm / g)
    return jax.tree.map(lambda leaf: leaf * scale, grads)


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(leaf * leaf) for leaf in jax.tree.leaves(grads))
    return lax.cond(sq > 0, lambda t: _clip(t, max_norm), lambda t: t, grads)
