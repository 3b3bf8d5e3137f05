import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(   # the moments used as they are, no bias correction
        lambda p, a, b: p - lr * (a / (jnp.sqrt(b) + eps) + weight_decay * p), params, m, v)
    return {"params": params, "m": m, "v": v, "count": count + 1}
