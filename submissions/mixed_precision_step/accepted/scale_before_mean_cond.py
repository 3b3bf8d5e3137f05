"""mixed_precision_step, honest: value_and_grad of a loss whose squared errors are scaled before
the mean (mean(scale * err^2), as the mean is linear), lax.cond for the finite branch with the
counter in its own cond.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: jnp.asarray(a, jnp.float16), params)
    x16 = jnp.asarray(x, jnp.float16)
    y16 = jnp.asarray(y, jnp.float16)
    scale = loss_scale.astype(jnp.float16)

    def loss_fn(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean(scale * (pred - y16) ** 2)

    _, grads = jax.value_and_grad(loss_fn)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))

    def good_branch(_):
        new = jax.tree.map(lambda p, d: p - lr * d, params, g)
        scale2, count = jax.lax.cond(good_steps + 1 == period,
                                     lambda: (loss_scale * 2, jnp.int32(0)),
                                     lambda: (loss_scale, good_steps + 1))
        return new, scale2, count

    def bad_branch(_):
        return params, loss_scale / 2, jnp.int32(0)

    new, scale2, count = jax.lax.cond(finite, good_branch, bad_branch, 0)
    return {"params": new, "loss_scale": scale2, "good_steps": count, "finite": finite}
