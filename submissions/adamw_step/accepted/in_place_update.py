"""Honest: the params, m and v dicts it is given updated in place, key by key (recursing into
nested dicts), and returned."""
import jax.numpy as jnp


def _walk(params, grads, m, v, hp):
    lr, b1, b2, eps, wd, bc1, bc2 = hp
    for key in params:
        if isinstance(params[key], dict):
            _walk(params[key], grads[key], m[key], v[key], hp)
            continue
        g = grads[key]
        m[key] = b1 * m[key] + (1 - b1) * g
        v[key] = b2 * v[key] + (1 - b2) * g * g
        params[key] = params[key] - lr * ((m[key] / bc1) / (jnp.sqrt(v[key] / bc2) + eps) + wd * params[key])


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    _walk(params, grads, m, v, (lr, b1, b2, eps, weight_decay, bc1, bc2))   # in place
    return {"params": params, "m": m, "v": v, "count": t}
