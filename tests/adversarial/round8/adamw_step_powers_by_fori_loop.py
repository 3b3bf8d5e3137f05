"""adamw_step: b1^t and b2^t by repeated multiplication in a ``lax.fori_loop`` whose bound is
the traced step number (a while loop of up to 100001 trips), both powers carried as a tuple.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _powers(b1, b2, t):
    def body(_, acc):
        p1, p2 = acc
        return p1 * b1, p2 * b2
    one = jnp.float32(1.0)
    return lax.fori_loop(0, t, body, (one, one))


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    p1, p2 = _powers(jnp.float32(b1), jnp.float32(b2), t)
    leaves, treedef = jax.tree_util.tree_flatten(params)
    gs, ms, vs = (treedef.flatten_up_to(tree) for tree in (grads, m, v))
    out_p, out_m, out_v = [], [], []
    for p, g, mm, vv in zip(leaves, gs, ms, vs):
        mm = b1 * mm + (1 - b1) * g
        vv = b2 * vv + (1 - b2) * g ** 2
        m_hat = mm / (1 - p1)
        v_hat = vv / (1 - p2)
        out_p.append(p - lr * (m_hat / (jnp.sqrt(v_hat) + eps) + weight_decay * p))
        out_m.append(mm)
        out_v.append(vv)
    un = treedef.unflatten
    return {"params": un(out_p), "m": un(out_m), "v": un(out_v), "count": t}
