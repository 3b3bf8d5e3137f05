import jax
import jax.numpy as jnp


def loss(w, b, x, t):
    return 0.5 * (jnp.dot(x, w) + b - t) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    # forward mode per example: each example's gradient is the Jacobian of its scalar loss,
    # pushed forward from a basis over w and b, and vmap runs it over the batch
    gw, gb = jax.vmap(jax.jacfwd(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    norms = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    scale = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
