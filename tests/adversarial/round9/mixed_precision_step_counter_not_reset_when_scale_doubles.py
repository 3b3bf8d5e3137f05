"""mixed_precision_step: a plausible wrong answer: on a finite step the counter always becomes
good_steps + 1, also when it completes the period and the scale doubles (the student resets
it only on overflow), so it returns period instead of 0 there.

Problem: mixed_precision_step
Expected: WA
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    count = good_steps + 1
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(count == period, 2 * loss_scale, loss_scale),
                                    loss_scale / 2),
            "good_steps": jnp.where(finite, count, 0),
            "finite": finite}
