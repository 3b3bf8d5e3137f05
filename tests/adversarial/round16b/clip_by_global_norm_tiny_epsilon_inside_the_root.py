"""clip_by_global_norm: honest code that guards the root with a tiny epsilon inside it,
``rsqrt(s + 1e-20)``: at an all-zero tree the factor is ``min(1, max_norm * 1e10) = 1`` with a
finite derivative, and at a norm of ``1e-3`` the epsilon moves the norm by ``5e-15`` of itself.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    s = sum(jnp.sum(l * l) for l in jax.tree_util.tree_leaves(grads))
    factor = jnp.minimum(1.0, max_norm * jax.lax.rsqrt(s + 1e-20))
    return jax.tree_util.tree_map(lambda l: l * factor, grads)
