"""mixed_precision_step: the gradient unscaled by ``jnp.reciprocal(loss_scale)`` (an
``integer_pow`` of -1 on the float32 scale, a nonlinear function of the scalar scale only, never
of params, x or y), the scale moved by ``jnp.ldexp`` with an exponent of -1, 0 or 1, the
float16 grads taken with ``jax.grad(..., has_aux=True)`` returning the unscaled loss beside.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda a: jnp.asarray(a, dtype=jnp.float16)
    p16, x16, y16 = jax.tree_util.tree_map(half, params), half(x), half(y)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        loss = jnp.mean(err * err)
        return loss * half(loss_scale), loss

    grads, _loss = jax.grad(scaled_loss, has_aux=True)(p16)
    inv_scale = jnp.reciprocal(loss_scale)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) * inv_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    full = good_steps + 1 >= period
    exponent = jnp.where(finite, jnp.where(full, 1, 0), -1)
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.ldexp(loss_scale, exponent),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
