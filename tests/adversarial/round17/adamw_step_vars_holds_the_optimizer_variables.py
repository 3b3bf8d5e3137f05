"""adamw_step: the optimizer's moments kept in a local dict named ``vars`` (TensorFlow's word
for an optimizer's variables), read back as ``vars["m"]`` and ``vars["v"]``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    vars = {
        "m": jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, m, grads),
        "v": jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads),
    }

    def update(p, mu, nu):
        direction = (mu / (1 - b1 ** tf)) / (jnp.sqrt(nu / (1 - b2 ** tf)) + eps)
        return p - lr * (direction + weight_decay * p)

    new_params = jax.tree_util.tree_map(update, params, vars["m"], vars["v"])
    return {"params": new_params, "m": vars["m"], "v": vars["v"], "count": t}
