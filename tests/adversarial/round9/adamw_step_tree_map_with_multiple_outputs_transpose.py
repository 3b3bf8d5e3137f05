"""adamw_step: one ``jax.tree.map`` over the four trees returning a (p', m', v') tuple per leaf,
split afterwards with ``jax.tree.transpose``; bias corrections by ``jnp.power`` of the float32
step number, the decoupled decay written as ``p * (1 - lr * wd)`` minus the Adam step.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1 = 1 - jnp.power(b1, tf)
    c2 = 1 - jnp.power(b2, tf)

    def leaf(p, g, mu, nu):
        mu = b1 * mu + (1 - b1) * g
        nu = b2 * nu + (1 - b2) * g * g
        upd = (mu / c1) / (jnp.sqrt(nu / c2) + eps)
        return p * (1 - lr * weight_decay) - lr * upd, mu, nu

    out = jax.tree.map(leaf, params, grads, m, v)
    outer = jax.tree.structure(params)
    inner = jax.tree.structure((0, 0, 0))
    new_p, new_m, new_v = jax.tree.transpose(outer, inner, out)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t}
