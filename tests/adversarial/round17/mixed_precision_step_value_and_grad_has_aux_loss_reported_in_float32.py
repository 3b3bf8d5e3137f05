"""mixed_precision_step: ``jax.value_and_grad(has_aux=True)`` with the unscaled float16 loss
as the auxiliary output, cast to float32 for a (discarded) log line, beside the step.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean((hid @ p["out"]["w"] - y16) ** 2)
        return loss * loss_scale.astype(jnp.float16), loss

    (_, loss16), g16 = jax.value_and_grad(scaled_loss, has_aux=True)(half)
    metrics = {"loss": loss16.astype(jnp.float32)}
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    del metrics
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
