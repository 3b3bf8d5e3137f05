"""per_example_clip: the closed-form per-example gradient built column by column in a Python loop
over the d features (allowed: d is a number here), the columns put together with
``jnp.stack(axis=1)`` and the bias column beside them; norms and clip batched over the examples.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = jnp.stack([r * X[:, k] for k in range(X.shape[1])], axis=1)
    norms = jnp.sqrt(jnp.sum(gw * gw, axis=1) + r * r)
    s = jnp.minimum(1.0, clip_norm / jnp.maximum(norms, 1e-30))
    return {"grad_w": jnp.mean(gw * s[:, None], axis=0), "grad_b": jnp.mean(r * s)}
