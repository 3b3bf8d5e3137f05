"""mixed_precision_step: the counter arithmetic done with integers: ``grow`` is
``(good_steps + 1) // period`` (1 exactly when the period completes, as good_steps < period),
made a float, and the new scale ``loss_scale * (1.0 + grow)`` on a finite step, the counter
``(good_steps + 1) % period``. Neither factor of that product is computed from params, x or y.

Problem: mixed_precision_step
Expected: AC
Cases: all
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
    grow = ((good_steps + 1) // period).astype(jnp.float32)
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, loss_scale * (1.0 + grow), loss_scale * 0.5),
            "good_steps": jnp.where(finite, (good_steps + 1) % period, 0),
            "finite": finite}
