import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    g = jnp.sqrt(sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads)))
    if float(g) <= max_norm:        # a traced value read as a Python number
        return grads
    return jax.tree_util.tree_map(lambda x: x * (max_norm / g), grads)
