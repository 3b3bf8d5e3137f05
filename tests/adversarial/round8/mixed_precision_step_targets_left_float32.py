"""mixed_precision_step: params and x cast to float16, but the targets y left in float32, so
pred - y promotes the residual to float32 and the loss, its square and the backward pass through
them run in float32: not the float16 computation the statement asks for.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16 = x.astype(jnp.float16)

    def scaled_loss(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y) ** 2) * loss_scale

    grads = jax.grad(scaled_loss)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    nxt = good_steps + 1
    full = nxt == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, nxt, 0).astype(jnp.int32),
            "finite": finite}
