"""Reference solution for adamw_step: one step of AdamW (optax.adamw with eps_root 0) on a
tree of parameters. The moments are updated leaf by leaf, bias-corrected with the step number
count + 1, and the decoupled weight decay is added to the Adam direction before both are
scaled by the learning rate."""

import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    bc1 = 1 - b1 ** t.astype(jnp.float32)
    bc2 = 1 - b2 ** t.astype(jnp.float32)
    new_m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    new_v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)

    def update(p, m_, v_):
        direction = (m_ / bc1) / (jnp.sqrt(v_ / bc2) + eps)
        return p - lr * (direction + weight_decay * p)

    new_params = jax.tree_util.tree_map(update, params, new_m, new_v)
    return {"params": new_params, "m": new_m, "v": new_v, "count": t}
