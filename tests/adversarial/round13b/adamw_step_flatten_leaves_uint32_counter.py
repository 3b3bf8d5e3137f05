"""adamw_step: the trees flattened to lists with ``tree_flatten`` and rebuilt with
``tree_unflatten``; the step counter kept as ``uint32`` while computing (an unsigned counter is
a common choice), converted to float for the bias corrections and back to int32 for the
output; a module docstring and a helper module-level function.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _moments(g, m, v, b1, b2):
    return b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    ps, treedef = jax.tree_util.tree_flatten(params)
    gs = treedef.flatten_up_to(grads)
    ms = treedef.flatten_up_to(m)
    vs = treedef.flatten_up_to(v)
    t = count.astype(jnp.uint32) + jnp.uint32(1)
    tf = t.astype(jnp.float32)
    c1 = 1.0 - b1 ** tf
    c2 = 1.0 - b2 ** tf
    out_p, out_m, out_v = [], [], []
    for p, g, mm, vv in zip(ps, gs, ms, vs):
        mm, vv = _moments(g, mm, vv, b1, b2)
        out_p.append(p - lr * (mm / c1 / (jnp.sqrt(vv / c2) + eps) + weight_decay * p))
        out_m.append(mm)
        out_v.append(vv)
    unflat = lambda xs: jax.tree_util.tree_unflatten(treedef, xs)
    return {"params": unflat(out_p), "m": unflat(out_m), "v": unflat(out_v),
            "count": t.astype(jnp.int32)}
