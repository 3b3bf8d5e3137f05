"""mixed_precision_step: the float16 forward wrapped in a ``jax.custom_jvp`` whose tangent rule
recomputes the layer in float32 (products and tanh on float32 operands) and casts the tangent
to float16: ``jax.grad`` transposes a float32 linearisation, so the backward pass is float32.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def _pred(W, b, w2, x):
    return jnp.tanh(x @ W + b) @ w2


@_pred.defjvp
def _pred_jvp(primals, tangents):
    W, b, w2, x = primals
    dW, db, dw2, _ = tangents
    up = lambda a: a.astype(jnp.float32)
    hid = jnp.tanh(up(x) @ up(W) + up(b))
    dhid = (1 - hid * hid) * (up(x) @ up(dW) + up(db))
    dout = dhid @ up(w2) + hid @ up(dw2)
    return _pred(W, b, w2, x), dout.astype(jnp.float16)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jnp.float16
    W, b, w2 = params["dense"]["w"].astype(h), params["dense"]["b"].astype(h), params["out"]["w"].astype(h)
    x16, y16 = x.astype(h), y.astype(h)

    def scaled(W, b, w2):
        return jnp.mean((_pred(W, b, w2, x16) - y16) ** 2) * loss_scale.astype(h)

    gW, gb, gw2 = (a.astype(jnp.float32) / loss_scale
                   for a in jax.grad(scaled, argnums=(0, 1, 2))(W, b, w2))
    finite = jnp.isfinite(gW).all() & jnp.isfinite(gb).all() & jnp.isfinite(gw2).all()
    upd = lambda p, d: jnp.where(finite, p - lr * d, p)
    wrap = good_steps + 1 == period
    return {"params": {"dense": {"w": upd(params["dense"]["w"], gW), "b": upd(params["dense"]["b"], gb)},
                       "out": {"w": upd(params["out"]["w"], gw2)}},
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
