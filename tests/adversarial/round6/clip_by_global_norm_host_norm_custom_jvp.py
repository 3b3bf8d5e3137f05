"""clip_by_global_norm: the norm computed in NumPy by ``jax.pure_callback`` wrapped in a
``jax.custom_jvp`` whose derivative is written in JAX, so that the judge's VJP still works.

Problem: clip_by_global_norm
Expected: RJ callback_used
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_jvp
def _norm(x):
    return jax.pure_callback(lambda a: np.float32(np.sqrt(np.sum(np.square(a)))),
                             jax.ShapeDtypeStruct((), jnp.float32), x)


@_norm.defjvp
def _norm_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    n = _norm(x)
    safe = jnp.where(n > 0, n, 1.0)
    return n, jnp.where(n > 0, jnp.dot(x, dx) / safe, 0.0)


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    flat = jnp.concatenate([jnp.ravel(x) for x in leaves])
    g = _norm(flat)
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > 0, g, 1.0), 1.0)
    return jax.tree_util.tree_unflatten(treedef, [x * scale for x in leaves])
