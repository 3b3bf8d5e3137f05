"""Attack: jax.experimental.io_callback (ordered) for the step count; the source gate refuses
the import, and the rule must refuse the primitive when the gate is off."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = io_callback(lambda c: np.int32(c + 1), jax.ShapeDtypeStruct((), jnp.int32), count,
                    ordered=True)
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * ((a / bc1) / (jnp.sqrt(b / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": t}
