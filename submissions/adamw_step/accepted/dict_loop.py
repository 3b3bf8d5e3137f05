"""Honest: a recursive loop over the dict keys (the tree is small and static), one leaf at a
time, the bias corrections with ** on a float step number."""
import jax.numpy as jnp


def _step(params, grads, m, v, hp):
    lr, b1, b2, eps, wd, bc1, bc2 = hp
    new_p, new_m, new_v = {}, {}, {}
    for key in params:
        if isinstance(params[key], dict):
            new_p[key], new_m[key], new_v[key] = _step(params[key], grads[key], m[key], v[key], hp)
            continue
        g = grads[key]
        mk = b1 * m[key] + (1 - b1) * g
        vk = b2 * v[key] + (1 - b2) * g * g
        m_hat = mk / bc1
        v_hat = vk / bc2
        new_p[key] = params[key] - lr * (m_hat / (jnp.sqrt(v_hat) + eps) + wd * params[key])
        new_m[key], new_v[key] = mk, vk
    return new_p, new_m, new_v


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    step = (count + 1).astype(jnp.float32)
    bc1 = 1 - b1 ** step
    bc2 = 1 - b2 ** step
    p, mm, vv = _step(params, grads, m, v, (lr, b1, b2, eps, weight_decay, bc1, bc2))
    return {"params": p, "m": mm, "v": vv, "count": count + 1}
