"""mixed_precision_step: the residual taken in float16, then cast up and squared in float32 as
``r32 ** 2`` (the loss's mean and scaling in float32 too). What lives of that float32 head is
the derivative by the residual, ``2 * r32`` times constants, cast back to float16 for the
backward products: a scaling of one float16 value, which float16 would compute to within
rounding (an overflow there is one at the cast back as well).

Problem: mixed_precision_step
Expected: RJ wrong_precision
Open: AC: float32 work widens the data where it combines two data values or applies another
  function than a sum or a scaling to one (JAX's own mean of float16 values sums in float32
  and divides by the count); the square's derivative here is a scaling of the float16 residual
  by constants
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = h(params), h(x), h(y)

    def scaled(p):
        r = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"] - y16
        r32 = r.astype(jnp.float32)
        return (jnp.mean(r32 ** 2) * loss_scale).astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
