"""Attack: b^t from the host, one pure_callback per step of a while loop nested in a jit, so
the callback sits two bodies deep."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _power(b, t):
    def body(state):
        i, acc = state
        nxt = jax.pure_callback(lambda a, x: np.float32(a * x),
                                jax.ShapeDtypeStruct((), jnp.float32), acc, b)
        return i + 1, nxt

    return jax.lax.while_loop(lambda s: s[0] < jnp.minimum(t, 64), body, (0, jnp.float32(1.0)))[1]


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    # b^t for t > 64 is far below float32's resolution of 1 - b^t only for b <= 0.75;
    # exact for the powers the loop reaches
    bc1 = 1 - jnp.where(t <= 64, _power(jnp.float32(b1), t), b1 ** t)
    bc2 = 1 - jnp.where(t <= 64, _power(jnp.float32(b2), t), b2 ** t)
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * ((a / bc1) / (jnp.sqrt(b / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": t}
