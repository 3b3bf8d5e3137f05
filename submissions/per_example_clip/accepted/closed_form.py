import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    # dl_i/dw = r_i * x_i and dl_i/db = r_i, with r_i = x_i . w + b - y_i
    r = X @ w + b - y
    norms = jnp.abs(r) * jnp.sqrt(jnp.sum(X * X, axis=1) + 1.0)
    scale = jnp.where(norms > clip_norm, clip_norm / jnp.where(norms > 0, norms, 1.0), 1.0)
    s = r * scale
    n = X.shape[0]
    return {"grad_w": (s @ X) / n, "grad_b": jnp.sum(s) / n}
