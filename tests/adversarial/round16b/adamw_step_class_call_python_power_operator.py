"""adamw_step: honest code with an optimizer class (``__call__``, hyperparameters plain
attributes) and the bias corrections by Python's ``**`` on a float32 array step.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class AdamW:
    def __init__(self, lr, b1, b2, eps, weight_decay):
        self.lr, self.b1, self.b2, self.eps, self.wd = lr, b1, b2, eps, weight_decay

    def __call__(self, params, grads, m, v, count):
        t = (count + 1).astype(jnp.float32)
        c1 = 1 - self.b1 ** t
        c2 = 1 - self.b2 ** t
        tm = jax.tree_util.tree_map
        m2 = tm(lambda a, g: self.b1 * a + (1 - self.b1) * g, m, grads)
        v2 = tm(lambda a, g: self.b2 * a + (1 - self.b2) * jnp.square(g), v, grads)
        p2 = tm(lambda p, a, b: p - self.lr * (a / c1 / (jnp.sqrt(b / c2) + self.eps) + self.wd * p),
                params, m2, v2)
        return p2, m2, v2


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    p2, m2, v2 = AdamW(lr, b1, b2, eps, weight_decay)(params, grads, m, v, count)
    return {"params": p2, "m": m2, "v": v2, "count": count + 1}
