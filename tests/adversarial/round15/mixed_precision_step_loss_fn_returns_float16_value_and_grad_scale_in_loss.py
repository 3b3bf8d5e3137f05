"""mixed_precision_step, honest: the unscaled float16 loss a function of its own, the scaled one
a second that multiplies it by the float16 scale, ``jax.value_and_grad`` of the second; the
skipped step written as ``jnp.where`` over ``jax.tree.map`` of the stepped and the old params.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss16(p, x, y):
    hid = jnp.tanh(jnp.matmul(x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.mean(jnp.square(jnp.matmul(hid, p["out"]["w"]) - y))


def _scaled(p, x, y, s):
    return _loss16(p, x, y) * s


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    c = lambda a: jnp.asarray(a, dtype=jnp.float16)
    _, grads = jax.value_and_grad(_scaled)(jax.tree.map(c, params), c(x), c(y), c(loss_scale))
    g = jax.tree.map(lambda a: jnp.asarray(a, dtype=jnp.float32) / loss_scale, grads)
    finite = jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]).all()
    stepped = jax.tree.map(lambda p, d: p - lr * d, params, g)
    grow = good_steps + 1 == period
    return {"params": jax.tree.map(lambda a, b: jnp.where(finite, a, b), stepped, params),
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale),
                                    loss_scale * 0.5),
            "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
