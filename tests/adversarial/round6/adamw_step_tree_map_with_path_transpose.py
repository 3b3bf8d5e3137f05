"""adamw_step: one ``jax.tree_util.tree_map_with_path`` over the four trees returning a triple
per leaf, split back into three trees with ``jax.tree.transpose``; the bias corrections with
``jnp.exp2(t * log2(b))`` (b = 0 gives exp2(-inf) = 0).

Problem: adamw_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = (count + 1).astype(jnp.float32)
    bc1 = 1.0 - jnp.exp2(t * jnp.log2(jnp.float32(b1)))
    bc2 = 1.0 - jnp.exp2(t * jnp.log2(jnp.float32(b2)))

    def leaf(path, p, g, mm, vv):
        del path  # the same rule for every leaf
        m1 = b1 * mm + (1.0 - b1) * g
        v1 = b2 * vv + (1.0 - b2) * jnp.square(g)
        step = (m1 / bc1) / (jnp.sqrt(v1 / bc2) + eps) + weight_decay * p
        return (p - lr * step, m1, v1)

    triples = jax.tree_util.tree_map_with_path(leaf, params, grads, m, v)
    outer = jax.tree.structure(params)
    inner = jax.tree.structure((0, 0, 0))
    new_p, new_m, new_v = jax.tree.transpose(outer, inner, triples)
    return {"params": new_p, "m": new_m, "v": new_v, "count": count + 1}
