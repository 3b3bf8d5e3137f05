import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2

    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    # clips the weights' part and the bias' part each on its own
    gw = gw / jnp.maximum(1.0, jnp.linalg.norm(gw, axis=1) / clip_norm)[:, None]
    gb = gb / jnp.maximum(1.0, jnp.abs(gb) / clip_norm)
    return {"grad_w": gw.mean(axis=0), "grad_b": gb.mean()}
