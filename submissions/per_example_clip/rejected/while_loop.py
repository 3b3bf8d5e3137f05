import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]

    def cond(state):
        return state[0] < n

    def body(state):
        i, acc_w, acc_b = state
        r = X[i] @ w + b - y[i]
        gw, gb = r * X[i], r
        factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw * gw) + gb * gb) / clip_norm)
        return i + 1, acc_w + gw * factor, acc_b + gb * factor

    _, total_w, total_b = jax.lax.while_loop(cond, body, (0, jnp.zeros_like(w), jnp.zeros_like(b)))
    return {"grad_w": total_w / n, "grad_b": total_b / n}
