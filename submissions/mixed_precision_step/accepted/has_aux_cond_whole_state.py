"""mixed_precision_step, honest: value_and_grad with has_aux (the predictions as aux), one
lax.cond on finite that returns the whole new state (both branches as named functions), the
grow test a second cond inside.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, (x16, y16) = cast(params), cast((x, y))
    s16 = loss_scale.astype(jnp.float16)

    def loss(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * s16, pred

    (_, _), grads = jax.value_and_grad(loss, has_aux=True)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))

    def apply(state):
        p, s, k = state
        p = jax.tree_util.tree_map(lambda a, d: a - lr * d, p, g)
        s, k = jax.lax.cond(k + 1 == period, lambda: (s * 2, jnp.int32(0)), lambda: (s, k + 1))
        return p, s, k

    def skip(state):
        p, s, _ = state
        return p, s / 2, jnp.int32(0)

    p, s, k = jax.lax.cond(finite, apply, skip, (params, loss_scale, good_steps))
    return {"params": p, "loss_scale": s, "good_steps": k, "finite": finite}
