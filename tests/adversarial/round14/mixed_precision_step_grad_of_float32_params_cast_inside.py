"""mixed_precision_step: ``jax.grad`` taken with respect to the float32 params, the cast to float16
inside the loss: the backward products still take and give float16, and the cast's transpose
hands back float32 gradients (the float16 ones cast up), unscaled as asked.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled_loss(p32):
        p = jax.tree.map(lambda a: a.astype(jnp.float16), p32)
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2)
        return loss * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a / loss_scale, jax.grad(scaled_loss)(params))
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, loss_scale * jnp.where(grow, 2.0, 1.0), loss_scale * 0.5),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
