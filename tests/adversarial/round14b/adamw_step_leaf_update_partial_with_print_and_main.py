"""adamw_step: one leaf's update as a module-level function bound with ``functools.partial`` to
the hyperparameters and both corrections, mapped over the four trees with
``jax.tree_util.tree_map`` returning tuples and split with ``tree_transpose``; a ``print`` of
the tree structure at trace time and a ``__main__`` block.

Problem: adamw_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def leaf_update(p, g, m, v, *, lr, b1, b2, eps, wd, c1, c2):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * jnp.square(g)
    p = p - lr * (m / c1 / (jnp.sqrt(v / c2) + eps) + wd * p)
    return p, m, v


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    print("adamw over", jax.tree_util.tree_structure(params))
    t = count + 1
    tf = t.astype(jnp.float32)
    update = partial(leaf_update, lr=lr, b1=b1, b2=b2, eps=eps, wd=weight_decay,
                     c1=1 - jnp.float32(b1) ** tf, c2=1 - jnp.float32(b2) ** tf)
    out = jax.tree_util.tree_map(update, params, grads, m, v)
    outer = jax.tree_util.tree_structure(params)
    inner = jax.tree_util.tree_structure((0, 0, 0))
    new_p, new_m, new_v = jax.tree_util.tree_transpose(outer, inner, out)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t}


if __name__ == "__main__":
    p = {"w": jnp.ones(2)}
    z = {"w": jnp.zeros(2)}
    print(adamw_step(p, p, z, z, jnp.int32(0), 1e-3, 0.9, 0.999, 1e-8, 0.01))
