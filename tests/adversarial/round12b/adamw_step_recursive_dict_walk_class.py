"""adamw_step: an optimizer class holding the hyperparameters, whose method walks the nested
dicts recursively (``isinstance(p, dict)``) and updates the leaves; the corrections by
``jnp.exp(t * jnp.log(b))`` guarded for b = 0 on the Python side.

Problem: adamw_step
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


class AdamW:
    def __init__(self, lr, b1, b2, eps, weight_decay):
        self.lr, self.b1, self.b2, self.eps, self.wd = lr, b1, b2, eps, weight_decay

    @staticmethod
    def _power(base, t):
        if base == 0.0:
            return jnp.zeros_like(t)
        return jnp.exp(t * math.log(base))

    def update(self, p, g, m, v, c1, c2):
        if isinstance(p, dict):
            res = {k: self.update(p[k], g[k], m[k], v[k], c1, c2) for k in p}
            return tuple({k: r[i] for k, r in res.items()} for i in range(3))
        m = self.b1 * m + (1 - self.b1) * g
        v = self.b2 * v + (1 - self.b2) * g ** 2
        m_hat, v_hat = m / c1, v / c2
        return p - self.lr * (m_hat / (jnp.sqrt(v_hat) + self.eps) + self.wd * p), m, v

    def __call__(self, params, grads, m, v, count):
        t = count + 1
        tf = jnp.asarray(t, jnp.float32)
        c1 = 1.0 - self._power(self.b1, tf)
        c2 = 1.0 - self._power(self.b2, tf)
        p, m, v = self.update(params, grads, m, v, c1, c2)
        return {"params": p, "m": m, "v": v, "count": t}


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    return AdamW(lr, b1, b2, eps, weight_decay)(params, grads, m, v, count)
