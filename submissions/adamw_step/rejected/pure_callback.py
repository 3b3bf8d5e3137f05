import jax
import jax.numpy as jnp
import numpy as np


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    def host(t):
        t = int(t) + 1
        return np.float32(1 - b1 ** t), np.float32(1 - b2 ** t)

    f32 = jax.ShapeDtypeStruct((), jnp.float32)
    bc1, bc2 = jax.pure_callback(host, (f32, f32), count)
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * ((a / bc1) / (jnp.sqrt(b / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": count + 1}
