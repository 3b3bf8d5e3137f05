"""mixed_precision_step, honest: a framework-free ``MLP`` class whose ``__call__(params, x)`` runs
the float16 forward pass, called normally inside the loss; ``jax.value_and_grad`` with the
loss value thrown away; ``jnp.asarray(..., jnp.float16)`` casts.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class MLP:
    def __call__(self, params, x):
        dense = params["dense"]
        hid = jnp.tanh(jnp.dot(x, dense["w"]) + dense["b"])
        return jnp.dot(hid, params["out"]["w"])


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    model = MLP()
    half = lambda a: jnp.asarray(a, jnp.float16)

    def loss(p):
        return jnp.mean((model(p, half(x)) - half(y)) ** 2) * half(loss_scale)

    _, grads = jax.value_and_grad(loss)(jax.tree.map(half, params))
    g = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for leaf in jax.tree.leaves(g):
        finite = finite & jnp.all(jnp.isfinite(leaf))
    stepped = jax.tree.map(lambda p, d: p - lr * d, params, g)
    grow = (good_steps + 1) == period
    return {"params": jax.tree.map(lambda a, b: jnp.where(finite, a, b), stepped, params),
            "loss_scale": jnp.where(finite, loss_scale * jnp.where(grow, 2.0, 1.0), loss_scale * 0.5),
            "good_steps": jnp.where(finite, (good_steps + 1) % period, 0).astype(jnp.int32),
            "finite": finite}
