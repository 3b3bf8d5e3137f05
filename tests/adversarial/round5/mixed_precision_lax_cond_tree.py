"""mixed_precision_step: the whole update in one ``jax.lax.cond`` on ``finite`` whose branches
return the new state (params, scale, counter), the loss with ``preferred_element_type``
float16 matrix products, the finite check with ``jax.tree_util.tree_reduce``.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: jnp.asarray(a, f16), params)
    x16, y16 = jnp.asarray(x, f16), jnp.asarray(y, f16)

    def loss(p):
        pre = jnp.matmul(x16, p["dense"]["w"], preferred_element_type=f16) + p["dense"]["b"]
        pred = jnp.matmul(jnp.tanh(pre), p["out"]["w"], preferred_element_type=f16)
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(f16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jax.tree_util.tree_reduce(lambda acc, a: acc & jnp.all(jnp.isfinite(a)), g, jnp.bool_(True))

    def apply(state):
        p, s, k = state
        new = jax.tree_util.tree_map(lambda a, d: a - lr * d, p, g)
        grow = k + 1 == period
        return new, jnp.where(grow, s * 2, s), jnp.where(grow, 0, k + 1)

    def skip(state):
        p, s, _ = state
        return p, s / 2, jnp.int32(0)

    new_params, scale, good = jax.lax.cond(finite, apply, skip, (params, loss_scale, good_steps))
    return {"params": new_params, "loss_scale": scale, "good_steps": good, "finite": finite}
