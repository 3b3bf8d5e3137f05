import jax
import jax.numpy as jnp
from jax import lax

HALF = jnp.float16


def _loss(W, b, w2, x, y):
    hid = jnp.tanh(jnp.matmul(x, W) + b)
    err = jnp.matmul(hid, w2) - y
    return jnp.mean(jnp.abs(err) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    W, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    s16 = loss_scale.astype(HALF)
    scaled = lambda W, b, w2: _loss(W, b, w2, x.astype(HALF), y.astype(HALF)) * s16
    g16 = jax.grad(scaled, argnums=(0, 1, 2))(W.astype(HALF), b.astype(HALF), w2.astype(HALF))
    gW, gb, gw2 = (g.astype(jnp.float32) / loss_scale for g in g16)
    finite = jnp.isfinite(jnp.concatenate([gW.ravel(), gb, gw2])).all()
    keep = lambda p, g: lax.select(jnp.broadcast_to(finite, p.shape), p - lr * g, p)
    grow = (good_steps + 1) == period
    factor = jnp.where(finite, jnp.where(grow, 2.0, 1.0), 0.5)
    return {"params": {"dense": {"w": keep(W, gW), "b": keep(b, gb)}, "out": {"w": keep(w2, gw2)}},
            "loss_scale": loss_scale * factor,
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps)),
            "finite": finite}
