"""Honest: PyTorch's AdamW order: decay the params by (1 - lr * wd) first, then step by
lr / bc1 along m / (sqrt(v) / sqrt(bc2) + eps)."""
import math

import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    step = count + 1
    bias_correction1 = 1 - jnp.power(b1, step.astype(jnp.float32))
    bias_correction2 = 1 - jnp.power(b2, step.astype(jnp.float32))
    step_size = lr / bias_correction1
    bias_correction2_sqrt = jnp.sqrt(bias_correction2)

    exp_avg = jax.tree_util.tree_map(lambda a, g: a * b1 + g * (1 - b1), m, grads)
    exp_avg_sq = jax.tree_util.tree_map(lambda a, g: a * b2 + g * g * (1 - b2), v, grads)

    def update(p, a, a_sq):
        p = p * (1 - lr * weight_decay)
        denom = jnp.sqrt(a_sq) / bias_correction2_sqrt + eps
        return p - step_size * a / denom

    new_params = jax.tree_util.tree_map(update, params, exp_avg, exp_avg_sq)
    assert not math.isnan(lr)
    return {"params": new_params, "m": exp_avg, "v": exp_avg_sq, "count": step}
