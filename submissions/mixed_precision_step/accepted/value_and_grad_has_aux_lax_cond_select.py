import jax
import jax.numpy as jnp
from jax import lax


def forward(p, x, y):
    z = jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"]
    pred = jnp.dot(jnp.tanh(z), p["out"]["w"])
    err = pred - y
    return jnp.mean(err * err)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: jnp.asarray(a, dtype=jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)
    (scaled, _), grads = jax.value_and_grad(
        lambda p: (forward(p, x16, y16) * s16, None), has_aux=True)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.logical_and.reduce(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))

    def good(_):
        newp = jax.tree.map(lambda a, b: a - lr * b, params, g)
        done = good_steps + 1 >= period
        scale = lax.select(done, loss_scale * 2.0, loss_scale)
        steps = lax.select(done, jnp.int32(0), good_steps + 1)
        return newp, scale, steps

    def bad(_):
        return params, loss_scale * 0.5, jnp.zeros((), jnp.int32)

    newp, scale, steps = lax.cond(finite, good, bad, None)
    return {"params": newp, "loss_scale": scale, "good_steps": steps, "finite": finite}
