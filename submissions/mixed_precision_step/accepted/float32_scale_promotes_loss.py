"""mixed_precision_step, honest: the float16 loss multiplied by the float32 loss_scale without a
cast (the product is float32, its derivative cast back to float16 before the backward pass, so
every matrix product and tanh stays float16); the update as p + (-lr) * g.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled(p):
        p = jax.tree_util.tree_map(lambda a: a.astype("float16"), p)
        hid = jnp.tanh(x.astype("float16") @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y.astype("float16")
        return jnp.mean(err * err) * loss_scale

    grads = jax.grad(scaled)(params)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jax.tree_util.tree_reduce(jnp.logical_and,
                                       jax.tree_util.tree_map(lambda a: jnp.all(jnp.isfinite(a)), g))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p + (-lr) * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite, (good_steps + 1) % period, 0).astype(jnp.int32),
            "finite": finite}
