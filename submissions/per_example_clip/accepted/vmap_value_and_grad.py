import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, x, t):
        pred = x @ w + b
        return 0.5 * jnp.square(pred - t)

    batched = jax.vmap(jax.value_and_grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    _losses, (gw, gb) = batched(w, b, X, y)
    flat = jnp.concatenate([gw, gb[:, None]], axis=1)          # (n, d + 1)
    norms = jnp.linalg.norm(flat, axis=1, keepdims=True)
    clipped = flat / jnp.maximum(1.0, norms / clip_norm)
    mean = clipped.mean(axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
