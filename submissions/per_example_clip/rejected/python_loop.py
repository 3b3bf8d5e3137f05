import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2

    total_w = jnp.zeros_like(w)
    total_b = jnp.zeros_like(b)
    for i in range(X.shape[0]):
        gw, gb = jax.grad(loss, argnums=(0, 1))(w, b, X[i], y[i])
        norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
        factor = 1.0 / jnp.maximum(1.0, norm / clip_norm)
        total_w = total_w + gw * factor
        total_b = total_b + gb * factor
    return {"grad_w": total_w / X.shape[0], "grad_b": total_b / X.shape[0]}
