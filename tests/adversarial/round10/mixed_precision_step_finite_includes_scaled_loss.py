"""mixed_precision_step, wrong answer: the student's ``finite`` also asks the scaled float16 loss
(the value ``jax.value_and_grad`` returns) to be finite; but the statement's ``finite`` is about
the gradient only, and loss * scale can pass 65504 while every gradient entry stays finite (a
mean error of 4 at the scale 32768 over a few rows): there the step must be taken.

Problem: mixed_precision_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)

    def scaled_loss(p):
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y.astype(jnp.float16)
        return jnp.mean(err ** 2) * loss_scale.astype(jnp.float16)

    value, grads = jax.value_and_grad(scaled_loss)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.isfinite(value) & jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    full = good_steps + 1 == period
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
