"""mixed_precision_step: the float16 forward pass by ``jnp.einsum`` (``"nd,dh->nh"``,
``"nh,h->n"``), ``jnp.mean(jnp.square(r))``, the scale doubled by ``loss_scale + loss_scale``
and halved by ``* 0.5``, the counter by ``jnp.where(..., 0, g + 1)``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = lambda a: jnp.asarray(a, jnp.float16)
    x16, y16 = f16(x), f16(y)

    def loss(p, scale):
        hid = jnp.tanh(jnp.einsum("nd,dh->nh", x16, p["dense"]["w"]) + p["dense"]["b"])
        r = jnp.einsum("nh,h->n", hid, p["out"]["w"]) - y16
        return jnp.mean(jnp.square(r)) * scale

    g16 = jax.grad(loss)(jax.tree.map(f16, params), f16(loss_scale))
    g = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32) / loss_scale, g16)
    finite = jax.tree.reduce(lambda a, b: a & b, jax.tree.map(lambda a: jnp.all(jnp.isfinite(a)), g))
    at_period = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(at_period, loss_scale + loss_scale, loss_scale),
                                loss_scale * 0.5),
        "good_steps": jnp.where(finite & ~at_period, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
