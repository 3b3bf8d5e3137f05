import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2

    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2) / clip_norm)
    return {"grad_w": jnp.sum(gw * factor[:, None], axis=0), "grad_b": jnp.sum(gb * factor)}
