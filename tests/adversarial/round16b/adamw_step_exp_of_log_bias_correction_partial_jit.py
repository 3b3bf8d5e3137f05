"""adamw_step: honest code under ``functools.partial(jax.jit, static_argnames=...)`` (the five
hyperparameters static) with the bias corrections as ``exp(t * log(b))`` (``log(0)`` is ``-inf``
and ``exp(-inf)`` 0, so ``b = 0`` gives the right correction of 1).

Problem: adamw_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("lr", "b1", "b2", "eps", "weight_decay"))
def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = jnp.asarray(t, dtype=jnp.float32)
    c1 = 1.0 - jnp.exp(tf * jnp.log(jnp.float32(b1)))
    c2 = 1.0 - jnp.exp(tf * jnp.log(jnp.float32(b2)))
    leaves_p, tree = jax.tree_util.tree_flatten(params)
    leaves_g = tree.flatten_up_to(grads)
    leaves_m = tree.flatten_up_to(m)
    leaves_v = tree.flatten_up_to(v)
    out_p, out_m, out_v = [], [], []
    for p, g, mm, vv in zip(leaves_p, leaves_g, leaves_m, leaves_v):
        mm = b1 * mm + (1.0 - b1) * g
        vv = b2 * vv + (1.0 - b2) * g * g
        out_p.append(p - lr * ((mm / c1) / (jnp.sqrt(vv / c2) + eps) + weight_decay * p))
        out_m.append(mm)
        out_v.append(vv)
    un = functools.partial(jax.tree_util.tree_unflatten, tree)
    return {"params": un(out_p), "m": un(out_m), "v": un(out_v), "count": t}
