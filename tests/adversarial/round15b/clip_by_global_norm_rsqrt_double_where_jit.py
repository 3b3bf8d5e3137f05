"""clip_by_global_norm: ``jax.lax.rsqrt`` of the sum of squares behind a double ``where`` (the
sum replaced by 1 where it is 0 before the rsqrt, so its derivative stays finite), the factor
``min(1, max_norm * rsqrt(s))``, under ``jax.jit`` with ``static_argnames``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("max_norm",))
def _clip(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    s = jnp.sum(jnp.stack([jnp.vdot(l, l) for l in leaves]))
    nonzero = s > 0
    inv = jax.lax.rsqrt(jnp.where(nonzero, s, 1.0))
    factor = jnp.where(nonzero, jnp.minimum(1.0, max_norm * inv), 1.0)
    return jax.tree_util.tree_map(lambda l: l * factor, grads)


def clip_by_global_norm(grads, max_norm):
    return _clip(grads, max_norm=max_norm)
