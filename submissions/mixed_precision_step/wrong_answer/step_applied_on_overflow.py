import jax
import jax.numpy as jnp


def _grads(params, x, y, loss_scale):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    return jax.grad(loss)(p16)


def _finite(g):
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    # the step is taken even when the gradient is not finite: params become inf or nan
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, _grads(params, x, y, loss_scale))
    finite = _finite(g)
    new = jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
