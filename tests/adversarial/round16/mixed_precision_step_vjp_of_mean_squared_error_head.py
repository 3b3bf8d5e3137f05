"""mixed_precision_step, honest: the loss split into the network (params -> pred) and a head
(pred -> scaled loss), the head's gradient by ``jax.grad`` and pulled back through the network
by ``jax.vjp``, all in float16: the chain rule of autodiff done in two calls.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

f16 = jnp.float16


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16, s16 = x.astype(f16), y.astype(f16), loss_scale.astype(f16)

    def net(p):
        return jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]

    def head(pred):
        return jnp.mean((pred - y16) ** 2) * s16

    pred, pullback = jax.vjp(net, p16)
    (g16,) = pullback(jax.grad(head)(pred))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
