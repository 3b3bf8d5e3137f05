import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(params, x, t):
        return 0.5 * (jnp.dot(x, params[0]) + params[1] - t) ** 2

    grads = [jax.grad(loss)((w, b), X[i], y[i]) for i in range(X.shape[0])]
    gw = jnp.stack([g[0] for g in grads])
    gb = jnp.stack([g[1] for g in grads])
    norms = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    factor = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
