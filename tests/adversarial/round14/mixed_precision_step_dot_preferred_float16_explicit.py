"""mixed_precision_step: the float16 products by ``jnp.dot(..., preferred_element_type=jnp.float16)``
(asked for explicitly), the bias added by ``jnp.add``, the update ``p + (-lr) * g``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

H = jnp.float16


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def loss(p, x16, y16):
        z = jnp.add(jnp.dot(x16, p["dense"]["w"], preferred_element_type=H), p["dense"]["b"])
        pred = jnp.dot(jnp.tanh(z), p["out"]["w"], preferred_element_type=H)
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(H)

    g16 = jax.grad(loss)(jax.tree.map(lambda a: a.astype(H), params), x.astype(H), y.astype(H))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p + (-lr) * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
