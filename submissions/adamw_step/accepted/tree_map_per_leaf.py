"""Honest: one function per leaf returning the three new values, mapped over the four trees
with jax.tree_util.tree_map, then split with tree_transpose."""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    bc1 = 1.0 - jnp.power(b1, t)
    bc2 = 1.0 - jnp.power(b2, t)

    def leaf(p, g, m_, v_):
        m_new = b1 * m_ + (1.0 - b1) * g
        v_new = b2 * v_ + (1.0 - b2) * jnp.square(g)
        u = (m_new / bc1) / (jnp.sqrt(v_new / bc2) + eps)
        return {"params": p - lr * (u + weight_decay * p), "m": m_new, "v": v_new}

    per_leaf = jax.tree_util.tree_map(leaf, params, grads, m, v)
    outer = jax.tree_util.tree_structure(params)
    inner = jax.tree_util.tree_structure({"params": 0, "m": 0, "v": 0})
    out = jax.tree_util.tree_transpose(outer, inner, per_leaf)
    return {**out, "count": t}
