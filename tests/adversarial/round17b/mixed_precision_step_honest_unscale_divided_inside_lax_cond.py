"""mixed_precision_step, honest: the float16 gradient cast up and divided by the float32 scale
inside ``lax.cond(finite, apply, keep, operands)``, the loss scale updated by a
``lax.switch`` on a phase index (0 halve, 1 keep, 2 double) computed from ``finite`` and the
counter.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean(jnp.square(hid @ p["out"]["w"] - y16)) * loss_scale.astype(jnp.float16)

    g16 = jax.grad(scaled_loss)(p16)
    finite = jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g16)]).all()

    def apply(ops):
        ps, gs = ops
        return jax.tree_util.tree_map(lambda p, g: p - lr * (g.astype(jnp.float32) / loss_scale), ps, gs)

    def keep(ops):
        return ops[0]

    new = jax.lax.cond(finite, apply, keep, (params, g16))
    full = good_steps + 1 >= period
    phase = jnp.where(finite, jnp.where(full, 2, 1), 0)
    scale = jax.lax.switch(phase, [lambda s: s * 0.5, lambda s: s, lambda s: s * 2.0], loss_scale)
    return {"params": new, "loss_scale": scale,
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
