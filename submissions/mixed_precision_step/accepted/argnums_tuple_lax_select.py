"""mixed_precision_step, honest: jax.grad with argnums=(0, 1, 2) over the three float16 leaves as
separate arguments (no dict in the loss), finite checked on the float16 gradient before
unscaling, the flags with lax.select, the update with a zeroed gradient (p - lr * 0 is p).

Expected: AC
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    W = params["dense"]["w"].astype(f16)
    b = params["dense"]["b"].astype(f16)
    w2 = params["out"]["w"].astype(f16)
    xs, ys, s = x.astype(f16), y.astype(f16), loss_scale.astype(f16)

    def loss(W, b, w2):
        pred = jnp.dot(jnp.tanh(jnp.dot(xs, W) + b), w2)
        return ((pred - ys) ** 2).mean() * s

    gW, gb, g2 = jax.grad(loss, argnums=(0, 1, 2))(W, b, w2)
    finite = jnp.isfinite(gW).all() & jnp.isfinite(gb).all() & jnp.isfinite(g2).all()
    unscale = lambda a: jnp.where(finite, a.astype(jnp.float32) / loss_scale, 0.0)
    gW, gb, g2 = unscale(gW), unscale(gb), unscale(g2)
    grow = good_steps + 1 == period
    scale = lax.select(finite, lax.select(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    good = lax.select(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps))
    return {"params": {"dense": {"w": params["dense"]["w"] - lr * gW,
                                 "b": params["dense"]["b"] - lr * gb},
                       "out": {"w": params["out"]["w"] - lr * g2}},
            "loss_scale": scale, "good_steps": good, "finite": finite}
