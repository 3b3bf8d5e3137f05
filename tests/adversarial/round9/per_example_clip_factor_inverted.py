"""per_example_clip: a plausible wrong answer: each gradient scaled by min(1, ||g_i|| / C)
instead of divided by max(1, ||g_i|| / C) (the student inverted the ratio while turning a
division into a product), closed form for the per-example gradients.

Problem: per_example_clip
Expected: WA
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = r[:, None] * X
    norm = jnp.sqrt(jnp.sum(gw * gw, axis=1) + r * r)
    f = jnp.minimum(1.0, norm / clip_norm)
    return {"grad_w": jnp.mean(gw * f[:, None], axis=0), "grad_b": jnp.mean(r * f)}
