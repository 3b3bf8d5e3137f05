"""mixed_precision_step, honest: moves by constant indices beside the step (what the rule on
lookups must let through): the out weights read as ``jnp.take(w2, jnp.arange(h))`` and the
dense weights' columns put back in order by ``W[:, jnp.arange(h)]`` (gathers of data at
constant indices), and the new out weights written by ``.at[jnp.arange(h)].set`` (a scatter at
constant indices), all in float32 around a float16 ``grad``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = params["out"]["w"].shape[0]
    order = jnp.arange(h)
    W = params["dense"]["w"][:, order]
    w2 = jnp.take(params["out"]["w"], order)
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), {"W": W, "b": params["dense"]["b"], "w2": w2})
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        r = jnp.tanh(x16 @ p["W"] + p["b"]) @ p["w2"] - y16
        return jnp.mean(r * r) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    step = lambda p, d: jnp.where(finite, p - lr * d, p)
    new_w2 = jnp.zeros_like(w2).at[order].set(step(w2, g["w2"]))
    grow = finite & (good_steps + 1 == period)
    return {
        "params": {"dense": {"w": step(W, g["W"]), "b": step(params["dense"]["b"], g["b"])},
                   "out": {"w": new_w2}},
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
