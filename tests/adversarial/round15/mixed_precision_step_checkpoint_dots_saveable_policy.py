"""mixed_precision_step, honest: the float16 scaled loss under ``jax.checkpoint`` with the
``dots_with_no_batch_dims_saveable`` policy (the backward pass recomputes the ``tanh``), the
gradient by ``jax.grad`` of it.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def _hidden(x, w, b):
    return jnp.tanh(x @ w + b)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = _hidden(h(x), p["dense"]["w"], p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - h(y)) ** 2) * h(loss_scale)

    loss = jax.checkpoint(loss, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
    grads = jax.grad(loss)(jax.tree.map(h, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
