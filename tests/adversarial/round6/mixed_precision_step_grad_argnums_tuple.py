"""mixed_precision_step: the loss a function of three float16 arrays (W, b, w2) and of the data,
``jax.grad(..., argnums=(0, 1, 2))``, finiteness checked on the float16 gradient before
unscaling (an infinity stays one after dividing by a scale of at least 1), the scale an
argument of the loss.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def _scaled_loss(w, b, w2, x, y, s):
    pred = jnp.tanh(x @ w + b) @ w2
    return ((pred - y) ** 2).mean() * s


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jnp.float16
    w, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    grads = jax.grad(_scaled_loss, argnums=(0, 1, 2))(
        w.astype(h), b.astype(h), w2.astype(h), x.astype(h), y.astype(h), loss_scale.astype(h))
    finite = jnp.logical_and.reduce(jnp.array([jnp.all(jnp.isfinite(t)) for t in grads]))
    gw, gb, gw2 = (t.astype(jnp.float32) / loss_scale for t in grads)
    upd = lambda p, d: jnp.where(finite, p - lr * d, p)
    full = good_steps + 1 == period
    return {
        "params": {"dense": {"w": upd(w, gw), "b": upd(b, gb)}, "out": {"w": upd(w2, gw2)}},
        "loss_scale": jnp.select([~finite, full], [loss_scale / 2, loss_scale * 2], loss_scale),
        "good_steps": jnp.select([~finite, full], [0, 0], good_steps + 1).astype(jnp.int32),
        "finite": finite,
    }
