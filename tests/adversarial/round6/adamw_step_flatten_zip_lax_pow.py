"""adamw_step: ``tree_flatten`` of the params and ``flatten_up_to`` of the other trees, a Python
loop over the zipped leaves, the bias corrections with ``lax.pow`` of float32 bases, the
hyperparameters as float32 constants, and the trees rebuilt with the params' treedef; ``count``
incremented with ``lax.add``.

Problem: adamw_step
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    leaves, treedef = jax.tree_util.tree_flatten(params)
    gl = treedef.flatten_up_to(grads)
    ml = treedef.flatten_up_to(m)
    vl = treedef.flatten_up_to(v)
    t = lax.add(count, jnp.int32(1))
    tf = lax.convert_element_type(t, jnp.float32)
    bc1 = 1.0 - lax.pow(jnp.float32(b1), tf)
    bc2 = 1.0 - lax.pow(jnp.float32(b2), tf)
    new_p, new_m, new_v = [], [], []
    for p, g, mm, vv in zip(leaves, gl, ml, vl):
        m1 = lax.mul(jnp.float32(b1), mm) + lax.mul(jnp.float32(1 - b1), g)
        v1 = lax.mul(jnp.float32(b2), vv) + lax.mul(jnp.float32(1 - b2), lax.square(g))
        direction = (m1 / bc1) / (lax.sqrt(v1 / bc2) + jnp.float32(eps))
        new_p.append(p - jnp.float32(lr) * (direction + jnp.float32(weight_decay) * p))
        new_m.append(m1)
        new_v.append(v1)
    unflat = treedef.unflatten
    return {"params": unflat(new_p), "m": unflat(new_m), "v": unflat(new_v), "count": t}
