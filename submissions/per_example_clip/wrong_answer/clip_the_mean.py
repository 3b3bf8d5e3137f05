import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b):
        return jnp.mean(0.5 * (X @ w + b - y) ** 2)

    # the gradient of the mean loss, clipped once: not per example
    gw, gb = jax.grad(loss, argnums=(0, 1))(w, b)
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2) / clip_norm)
    return {"grad_w": gw * factor, "grad_b": gb * factor}
