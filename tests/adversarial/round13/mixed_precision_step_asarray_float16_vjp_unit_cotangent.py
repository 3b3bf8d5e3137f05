"""mixed_precision_step: casts by ``jnp.asarray(..., jnp.float16)``, the scaled loss's gradient
by ``jax.vjp`` pulled back with a float16 one (autodiff all the same), the scale's growth as a
factor picked by ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = {name: {k: jnp.asarray(a, jnp.float16) for k, a in layer.items()} for name, layer in params.items()}
    x16 = jnp.asarray(x, dtype=jnp.float16)
    y16 = jnp.asarray(y, dtype=jnp.float16)
    scale16 = jnp.asarray(loss_scale, dtype=jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * scale16

    _, pull = jax.vjp(scaled_loss, half)
    (grads,) = pull(jnp.asarray(1.0, jnp.float16))
    g = {name: {k: jnp.asarray(a, jnp.float32) / loss_scale for k, a in layer.items()}
         for name, layer in grads.items()}
    finite = jnp.all(jnp.asarray([jnp.isfinite(a).all() for layer in g.values() for a in layer.values()]))
    new = {name: {k: jnp.where(finite, params[name][k] - lr * g[name][k], params[name][k]) for k in layer}
           for name, layer in params.items()}
    grow = good_steps + 1 >= period
    factor = jnp.where(finite, jnp.where(grow, 2.0, 1.0), 0.5)
    good = jnp.where(finite & ~grow, good_steps + 1, 0)
    return {"params": new, "loss_scale": loss_scale * factor, "good_steps": jnp.asarray(good, jnp.int32),
            "finite": finite}
