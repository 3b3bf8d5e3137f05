"""clipped_mean_grad for per_example_clip: part of each example's work runs inside the reducer
of ``lax.reduce`` (a jax.grad per element pair, folded into the squared norm), a primitive that
carries a function the rules count once however often it runs. No deny-list names ``reduce``.

Expected: RJ function_primitive
"""

import jax
import jax.numpy as jnp


def _reducer(acc, c):
    return acc + jax.grad(lambda u: 0.5 * u * u)(c) * c   # c * c, by a gradient


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    g = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
    norm = jnp.sqrt(jax.lax.reduce(g, jnp.float32(0.0), _reducer, (1,)))
    g = g / jnp.maximum(1.0, norm / clip_norm)[:, None]
    mean = jnp.mean(g, axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
