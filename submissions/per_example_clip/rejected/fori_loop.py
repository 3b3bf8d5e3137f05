import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]

    def body(i, acc):
        acc_w, acc_b = acc
        gw, gb = jax.grad(lambda w, b: 0.5 * (X[i] @ w + b - y[i]) ** 2, argnums=(0, 1))(w, b)
        factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw * gw) + gb * gb) / clip_norm)
        return acc_w + gw * factor, acc_b + gb * factor

    total_w, total_b = jax.lax.fori_loop(0, n, body, (jnp.zeros_like(w), jnp.zeros_like(b)))
    return {"grad_w": total_w / n, "grad_b": total_b / n}
