"""Honest: the whole step under jax.jit, hyperparameters included as traced float32 scalars
(no static_argnums), with jax.tree.map."""
import jax
import jax.numpy as jnp


@jax.jit
def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g ** 2, v, grads)
    count = count + 1
    c1 = 1 - b1 ** count
    c2 = 1 - b2 ** count
    params = jax.tree.map(
        lambda p, m_, v_: p - lr * (m_ / c1 / (jnp.sqrt(v_ / c2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": count}
