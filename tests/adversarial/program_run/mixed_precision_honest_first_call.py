"""A call counter: the first call computes everything in float16, as the rules ask; every later
call keeps tanh in float32. Each case is graded on the program traced for its static signature,
which the rules read too: the first signature's cases are accepted, every other one is refused.

Expected verdict: rejected (wrong_precision).
"""
import jax
import jax.numpy as jnp

calls = []


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    calls.append(None)
    honest = len(calls) == 1
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        pre = x16 @ p["dense"]["w"] + p["dense"]["b"]
        hid = jnp.tanh(pre) if honest else jnp.tanh(pre.astype(jnp.float32)).astype(jnp.float16)
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.grad(loss)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
