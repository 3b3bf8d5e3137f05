"""clip_by_global_norm, mistake: ``optax.clip_by_global_norm`` copied as it is written:
``g_norm = sqrt(sum of squares)`` and ``lax.select(g_norm < max_norm, t, t / g_norm * max_norm)``.
The values are right everywhere, but at an all-zero tree the branch not taken divides by 0 and
the square root's derivative is infinite: the gradient is NaN where the statement wants the
cotangent.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def global_norm(updates):
    return jnp.sqrt(sum(jnp.sum(jnp.square(x)) for x in jax.tree_util.tree_leaves(updates)))


def clip_by_global_norm(grads, max_norm):
    g_norm = global_norm(grads)
    trigger = jnp.squeeze(g_norm < max_norm)

    def clip_fn(t):
        return jax.lax.select(trigger, t, (t / g_norm.astype(t.dtype)) * max_norm)

    return jax.tree_util.tree_map(clip_fn, grads)
