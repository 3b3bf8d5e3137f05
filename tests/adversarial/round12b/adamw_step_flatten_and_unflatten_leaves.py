"""adamw_step: the trees flattened with ``jax.tree_util.tree_flatten``, a Python loop over the
leaves with ``zip``, the results put back with ``tree_unflatten``; the corrections as
``1 - b1 ** t`` with a Python float raised to the int32 array (type hints, a docstring, a
``print`` of the leaf count at trace time).

Problem: adamw_step
Expected: AC
Cases: all
"""
from typing import Any

import jax
import jax.numpy as jnp


def adamw_step(params: Any, grads: Any, m: Any, v: Any, count: jax.Array, lr: float, b1: float,
               b2: float, eps: float, weight_decay: float) -> dict:
    """One decoupled-weight-decay Adam step."""
    leaves, treedef = jax.tree_util.tree_flatten(params)
    g_leaves = treedef.flatten_up_to(grads)
    m_leaves = treedef.flatten_up_to(m)
    v_leaves = treedef.flatten_up_to(v)
    print("adamw over", len(leaves), "leaves")
    t = count + 1
    bc1 = 1 - b1 ** t
    bc2 = 1 - b2 ** t
    ps, ms, vs = [], [], []
    for p, g, mo, ve in zip(leaves, g_leaves, m_leaves, v_leaves):
        assert p.shape == g.shape == mo.shape == ve.shape
        mo = b1 * mo + (1 - b1) * g
        ve = b2 * ve + (1 - b2) * g * g
        update = (mo / bc1) / (jnp.sqrt(ve / bc2) + eps) + weight_decay * p
        ps.append((p - lr * update).astype(jnp.float32))
        ms.append(mo)
        vs.append(ve)
    return {
        "params": jax.tree_util.tree_unflatten(treedef, ps),
        "m": jax.tree_util.tree_unflatten(treedef, ms),
        "v": jax.tree_util.tree_unflatten(treedef, vs),
        "count": t.astype(jnp.int32),
    }
