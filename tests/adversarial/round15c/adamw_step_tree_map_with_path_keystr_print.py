"""adamw_step: ``jax.tree_util.tree_map_with_path`` over the four trees, printing each leaf's
``keystr`` and shape at trace time, the moments and the parameter of a leaf computed in one
function returning a tuple, split afterwards with ``jax.tree.map`` and ``is_leaf=lambda t:
isinstance(t, tuple)``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    c1 = 1.0 - b1 ** t.astype(jnp.float32)
    c2 = 1.0 - b2 ** t.astype(jnp.float32)

    def leaf(path, p, g, mu, nu):
        print(jax.tree_util.keystr(path), p.shape)
        mu = b1 * mu + (1.0 - b1) * g
        nu = b2 * nu + (1.0 - b2) * g * g
        return p - lr * (mu / c1 / (jnp.sqrt(nu / c2) + eps) + weight_decay * p), mu, nu

    out = jax.tree_util.tree_map_with_path(leaf, params, grads, m, v)
    is_triple = lambda x: isinstance(x, tuple)
    return {"params": jax.tree.map(lambda x: x[0], out, is_leaf=is_triple),
            "m": jax.tree.map(lambda x: x[1], out, is_leaf=is_triple),
            "v": jax.tree.map(lambda x: x[2], out, is_leaf=is_triple),
            "count": t}
