"""mixed_precision_step: optax-like plumbing: an ``sgd(lr)`` transformation returning updates
(``-lr * g``), ``apply_if_finite`` choosing zero updates when not finite, ``apply_updates``
adding them; the gradient by ``jax.jacrev`` of the scalar scaled loss.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def sgd(lr):
    return lambda grads: jax.tree_util.tree_map(lambda g: -lr * g, grads)


def apply_if_finite(finite, updates):
    return jax.tree_util.tree_map(lambda u: jnp.where(finite, u, jnp.zeros_like(u)), updates)


def apply_updates(params, updates):
    return jax.tree_util.tree_map(lambda p, u: jnp.where(u == 0, p, p + u), params, updates)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    x16, y16 = half((x, y))

    def loss(p):
        pred = jax.nn.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.jacrev(loss)(half(params))
    grads = jax.tree_util.tree_map(lambda g: g.astype(jnp.float32) / loss_scale, grads)
    finite = jax.tree_util.tree_reduce(jnp.logical_and,
                                       jax.tree_util.tree_map(lambda g: jnp.isfinite(g).all(), grads))
    new_params = apply_updates(params, apply_if_finite(finite, sgd(lr)(grads)))
    grow = jnp.logical_and(finite, good_steps == period - 1)
    scale = jnp.where(finite, loss_scale, loss_scale / 2) * jnp.where(grow, 2.0, 1.0)
    steps = jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": scale, "good_steps": steps, "finite": finite}
