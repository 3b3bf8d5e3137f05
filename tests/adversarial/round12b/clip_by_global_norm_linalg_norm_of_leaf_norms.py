"""clip_by_global_norm: each leaf's squared norm by ``jnp.vdot``, stacked and summed; the
factor ``jnp.clip(max_norm * rsqrt(sq), None, 1)``, the reciprocal square root taken only of
a sum above ``max_norm ** 2`` (1 elsewhere), so no infinite derivative is met at zero.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree.leaves(grads)
    sq = jnp.stack([jnp.vdot(x, x) for x in leaves]).sum()
    big = sq > max_norm * max_norm
    inv = jax.lax.rsqrt(jnp.where(big, sq, 1.0))
    factor = jnp.where(big, jnp.clip(max_norm * inv, None, 1.0), 1.0)
    return jax.tree.map(lambda x: (x * factor).astype(x.dtype), grads)
