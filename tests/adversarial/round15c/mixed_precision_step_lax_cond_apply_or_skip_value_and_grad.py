"""mixed_precision_step: ``jax.value_and_grad`` of the scaled float16 loss (the value unused), the
update or the skip chosen with ``jax.lax.cond(finite, apply, skip, operands)`` returning the
three new fields at once; ``finite`` by ``jnp.all`` of a stacked list of leaf checks.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled_loss(p16):
        xs, ys = x.astype(jnp.float16), y.astype(jnp.float16)
        hid = jnp.tanh(jnp.dot(xs, p16["dense"]["w"]) + p16["dense"]["b"])
        err = jnp.dot(hid, p16["out"]["w"]) - ys
        return jnp.mean(err * err) * loss_scale.astype(jnp.float16)

    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    _, grads16 = jax.value_and_grad(scaled_loss)(half)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads16)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))

    def apply(ops):
        p, grad, scale, good = ops
        new_p = jax.tree_util.tree_map(lambda a, d: a - lr * d, p, grad)
        grow = good + 1 == period
        return (new_p, jnp.where(grow, scale * 2, scale),
                jnp.where(grow, jnp.int32(0), good + 1))

    def skip(ops):
        p, _, scale, _ = ops
        return p, scale / 2, jnp.int32(0)

    new_p, new_scale, new_good = jax.lax.cond(finite, apply, skip,
                                              (params, g, loss_scale, good_steps))
    return {"params": new_p, "loss_scale": new_scale, "good_steps": new_good, "finite": finite}
