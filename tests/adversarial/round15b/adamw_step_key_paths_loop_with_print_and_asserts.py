"""adamw_step: a Python loop over ``tree_flatten_with_path``'s key paths (a print of each leaf's
path and shape at trace time, an assert that the four trees agree), the leaves rebuilt with
``tree_unflatten``; the step number as ``jnp.add(count, jnp.int32(1))``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    flat, treedef = jax.tree_util.tree_flatten_with_path(params)
    for other in (grads, m, v):
        assert jax.tree_util.tree_structure(other) == treedef, "trees differ"
    t = jnp.add(count, jnp.int32(1))
    tf = t.astype(jnp.float32)
    bc1 = 1.0 - jnp.float32(b1) ** tf
    bc2 = 1.0 - jnp.float32(b2) ** tf
    gl, ml, vl = (jax.tree_util.tree_leaves(tr) for tr in (grads, m, v))
    P, M, V = [], [], []
    for (path, p), g, mm, vv in zip(flat, gl, ml, vl):
        print(jax.tree_util.keystr(path), p.shape)
        mm = b1 * mm + (1.0 - b1) * g
        vv = b2 * vv + (1.0 - b2) * (g * g)
        P.append(p - lr * (mm / bc1 / (jnp.sqrt(vv / bc2) + eps) + weight_decay * p))
        M.append(mm)
        V.append(vv)
    build = lambda leaves: jax.tree_util.tree_unflatten(treedef, leaves)
    return {"params": build(P), "m": build(M), "v": build(V), "count": t}
