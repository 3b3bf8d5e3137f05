"""mixed_precision_step: the unscaled gradient's non-finite entries zeroed one by one with
``jnp.where(jnp.isfinite(g), g, 0.0)`` (``isnan`` and ``isinf`` written out), the flag from the
leaves' own tests, and the update chosen by ``finite``: a float32 choice per entry by a
finiteness test of the float16 gradient cast up, which float16 could make itself.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    bad = jax.tree_util.tree_map(lambda a: jnp.isnan(a) | jnp.isinf(a), g)
    finite = ~jnp.any(jnp.stack([b.any() for b in jax.tree_util.tree_leaves(bad)]))
    clean = jax.tree_util.tree_map(lambda a, b: jnp.where(b, 0.0, a), g, bad)
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, clean)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
