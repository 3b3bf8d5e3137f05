"""mixed_precision_step: ``good_steps`` by integer arithmetic, ``(good_steps + 1) % period``
times ``finite`` cast to ``int32``; the doubling read off ``new_good == 0``.

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
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                               jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new_good = ((good_steps + 1) % period) * finite.astype(jnp.int32)
    doubled = finite & (new_good == 0)
    new_scale = jnp.where(doubled, loss_scale * 2, jnp.where(finite, loss_scale, loss_scale / 2))
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good.astype(jnp.int32),
            "finite": finite}
