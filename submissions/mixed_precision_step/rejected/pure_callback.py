import jax
import jax.numpy as jnp

import numpy as np

def _grads(params, x, y, loss_scale):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    return jax.grad(loss)(p16)


def _finite(g):
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))


def _update(finite, good, scale, period):
    grow = bool(finite) and int(good) + 1 == period
    if not finite:
        return np.float32(scale / 2), np.int32(0)
    return np.float32(scale * (2 if grow else 1)), np.int32(0 if grow else good + 1)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, _grads(params, x, y, loss_scale))
    finite = _finite(g)
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    scale, good = jax.pure_callback(
        lambda f, gs, s: _update(f, gs, s, period),
        (jax.ShapeDtypeStruct((), jnp.float32), jax.ShapeDtypeStruct((), jnp.int32)),
        finite, good_steps, loss_scale)
    return {"params": new, "loss_scale": scale, "good_steps": good, "finite": finite}
