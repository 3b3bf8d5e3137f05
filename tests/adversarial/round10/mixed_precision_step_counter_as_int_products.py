"""mixed_precision_step: the student writes the bookkeeping as integer and float arithmetic
instead of selects: good_steps' = ((good_steps + 1) % period) * finite, the scale multiplied by
a factor 0.5 + 0.5 * finite + finite * full (a product of two decisions), the update masked
after the non-finite entries are zeroed by ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)

    def loss_fn(p):
        hid = jnp.tanh(jnp.dot(x.astype(f16), p["dense"]["w"]) + p["dense"]["b"])
        pred = jnp.dot(hid, p["out"]["w"])
        return jnp.mean(jnp.square(pred - y.astype(f16)))

    grads = jax.grad(lambda p: loss_fn(p) * loss_scale.astype(f16))(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]).all()
    fin_i = finite.astype(jnp.int32)
    full = (good_steps + 1 == period).astype(jnp.float32)
    fin_f = finite.astype(jnp.float32)
    factor = 0.5 + 0.5 * fin_f + fin_f * full
    safe = jax.tree_util.tree_map(lambda a: jnp.where(jnp.isfinite(a), a, 0.0), g)
    new_params = jax.tree_util.tree_map(lambda p, d: p - (lr * fin_f) * d, params, safe)
    return {"params": new_params,
            "loss_scale": loss_scale * factor,
            "good_steps": ((good_steps + 1) % period) * fin_i,
            "finite": finite}
