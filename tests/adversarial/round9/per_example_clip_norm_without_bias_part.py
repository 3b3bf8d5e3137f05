"""per_example_clip: a plausible wrong answer: each example's gradient clipped with the norm of
its weights' part only (the bias' entry left out of ||g_i||), otherwise ``jax.vmap(jax.grad)``.

Problem: per_example_clip
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    loss = lambda w, b, x, t: 0.5 * (x @ w + b - t) ** 2
    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    n = jnp.linalg.norm(gw, axis=1)
    f = 1.0 / jnp.maximum(1.0, n / clip_norm)
    return {"grad_w": (gw * f[:, None]).mean(0), "grad_b": (gb * f).mean()}
