import jax
import jax.numpy as jnp

CHUNK = 16


def clipped_mean_grad(w, b, X, y, clip_norm):
    # vmap over micro-batches of 16 examples, with a Python loop over the micro-batches
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2

    per_example = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    total_w, total_b = jnp.zeros_like(w), jnp.zeros_like(b)
    for start in range(0, X.shape[0], CHUNK):
        gw, gb = per_example(w, b, X[start:start + CHUNK], y[start:start + CHUNK])
        factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2) / clip_norm)
        total_w = total_w + jnp.sum(gw * factor[:, None], axis=0)
        total_b = total_b + jnp.sum(gb * factor)
    return {"grad_w": total_w / X.shape[0], "grad_b": total_b / X.shape[0]}
