"""Attack: jax.debug.callback (allowed for printing) used to read the norm on the host into a
Python list; the value is read back on the next call, so it cannot change this output, but a
rule that lets debug callbacks through would let the host see every traced value."""
import jax
import jax.numpy as jnp

_SEEN = []


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    jax.debug.callback(lambda s: _SEEN.append(float(s)), sq)
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    return jax.tree_util.tree_map(lambda x: x * (max_norm / jnp.maximum(norm, max_norm)), grads)
