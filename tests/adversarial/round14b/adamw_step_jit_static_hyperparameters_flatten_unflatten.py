"""adamw_step: the step under ``jax.jit`` with ``static_argnames`` for the five hyperparameters,
the four trees flattened with ``jax.tree_util.tree_flatten`` (one treedef), a list
comprehension over the leaves, and ``treedef.unflatten`` back; bias corrections by
``jnp.exp(t * log(b))`` guarded for b = 0.

Problem: adamw_step
Expected: AC
Cases: all
"""
import math
from functools import partial

import jax
import jax.numpy as jnp


def _bias(b: float, t):
    if b == 0.0:
        return jnp.float32(1.0)
    return 1.0 - jnp.exp(t.astype(jnp.float32) * math.log(b))


@partial(jax.jit, static_argnames=("lr", "b1", "b2", "eps", "weight_decay"))
def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    leaves, treedef = jax.tree_util.tree_flatten(params)
    gs, ms, vs = (treedef.flatten_up_to(tree) for tree in (grads, m, v))
    t = count + 1
    c1, c2 = _bias(b1, t), _bias(b2, t)
    new_m = [b1 * mi + (1 - b1) * gi for mi, gi in zip(ms, gs)]
    new_v = [b2 * vi + (1 - b2) * gi ** 2 for vi, gi in zip(vs, gs)]
    new_p = [p - lr * (mi / c1 / (jnp.sqrt(vi / c2) + eps) + weight_decay * p)
             for p, mi, vi in zip(leaves, new_m, new_v)]
    return {"params": treedef.unflatten(new_p), "m": treedef.unflatten(new_m),
            "v": treedef.unflatten(new_v), "count": t}
