"""adamw_step: the usual training-code habit of exempting biases and norm scales from weight
decay, by key name ("bias", "scale", "norm", "ln"): the spec decays every leaf. The examples
decay only leaves named "w", "b" and "kernel", or use no decay where the key is "scale".

Problem: adamw_step
Expected: WA
Cases: all
"""

import jax.numpy as jnp

NO_DECAY = ("bias", "scale", "norm", "ln", "gamma", "beta")


def _step(p, g, m, v, t, lr, b1, b2, eps, wd, path):
    if isinstance(p, dict):
        outs = {k: _step(p[k], g[k], m[k], v[k], t, lr, b1, b2, eps, wd, path + (k,))
                for k in p}
        return tuple({k: o[i] for k, o in outs.items()} for i in range(3))
    m1 = b1 * m + (1 - b1) * g
    v1 = b2 * v + (1 - b2) * g ** 2
    direction = (m1 / (1 - b1 ** t)) / (jnp.sqrt(v1 / (1 - b2 ** t)) + eps)
    decay = 0.0 if any(s in path[-1].lower() for s in NO_DECAY) else wd
    return p - lr * (direction + decay * p), m1, v1


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    p, m1, v1 = _step(params, grads, m, v, t, lr, b1, b2, eps, weight_decay, ())
    return {"params": p, "m": m1, "v": v1, "count": t}
