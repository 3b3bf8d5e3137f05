"""mixed_precision_step, a mistake: the new scale as ``jnp.exp2(jnp.log2(loss_scale) + step)``
with the step +1, 0 or -1 picked by ``jnp.select`` (a nonlinear function of the scale is
allowed: it is no value computed from params, x or y), ``finite`` read on the float16 gradient
before unscaling. XLA's float32 ``exp2`` and ``log2`` are not exact at powers of two (half of
32768 comes out 16383.984), and the scale must match exactly: a wrong answer, not a rule's.

Problem: mixed_precision_step
Expected: WA wrong_value
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads16 = jax.grad(scaled)(half)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(grads16)]))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads16)
    grow = good_steps + 1 == period
    step = jnp.select([~finite, grow], [-1.0, 1.0], 0.0)
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.exp2(jnp.log2(loss_scale) + step),
        "good_steps": jnp.select([~finite, grow], [0, 0], good_steps + 1).astype(jnp.int32),
        "finite": finite,
    }
