"""mixed_precision_step, honest: float16 ``jnp.matmul(..., precision=lax.Precision.HIGHEST)``,
``jax.grad(..., has_aux=True)`` returning the prediction beside the scaled loss, and
``finite`` by ``jax.flatten_util.ravel_pytree`` of the gradient and one ``jnp.isfinite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.flatten_util import ravel_pytree

HI = lax.Precision.HIGHEST


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    x16, y16, s16 = (a.astype(jnp.float16) for a in (x, y, loss_scale))

    def loss(p):
        hid = jnp.tanh(jnp.matmul(x16, p["dense"]["w"], precision=HI) + p["dense"]["b"])
        pred = jnp.matmul(hid, p["out"]["w"], precision=HI)
        return jnp.mean((pred - y16) ** 2) * s16, pred

    grads, _pred = jax.grad(loss, has_aux=True)(jax.tree.map(lambda a: a.astype(jnp.float16), params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    flat, _ = ravel_pytree(g)
    finite = jnp.isfinite(flat).all()
    grow = finite & (good_steps + 1 >= period)
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.select([~finite, grow], [loss_scale / 2, loss_scale * 2], loss_scale),
            "good_steps": jnp.select([~finite, grow], [0, 0], good_steps + 1).astype(jnp.int32),
            "finite": finite}
