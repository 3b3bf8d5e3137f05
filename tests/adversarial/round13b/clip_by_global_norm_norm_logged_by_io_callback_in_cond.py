"""clip_by_global_norm: the global norm sent to a Python logger with ``io_callback`` from the
branch of a ``lax.cond`` that clips, imported from ``jax.experimental`` under another name; the
statement forbids calling back into Python, wherever the call sits, and the source gate refuses
the import before anything runs.

Problem: clip_by_global_norm
Expected: RJ forbidden_construct
"""
import jax
import jax.numpy as jnp
from jax.experimental import io_callback as _log_hook

SEEN = []


def _record(g):
    SEEN.append(float(g))
    return g


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(leaf * leaf) for leaf in jax.tree_util.tree_leaves(grads))
    ok = sq > 0
    g = jnp.where(ok, jnp.sqrt(jnp.where(ok, sq, 1.0)), 0.0)

    def clipped(g):
        g = _log_hook(_record, jax.ShapeDtypeStruct((), jnp.float32), g)
        return max_norm / g

    factor = jax.lax.cond(g > max_norm, clipped, lambda g: jnp.float32(1.0), g)
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
