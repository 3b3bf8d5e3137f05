import jax
import jax.numpy as jnp


def clip(g, c):
    gw, gb = g
    norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
    f = jnp.minimum(1.0, c / jnp.maximum(norm, 1e-30))
    return gw * f, gb * f


def clipped_mean_grad(w, b, X, y, clip_norm):
    grad = jax.grad(lambda w, b, x, t: 0.5 * (x @ w + b - t) ** 2, argnums=(0, 1))
    clipped = [clip(grad(w, b, x, t), clip_norm) for x, t in zip(X, y)]
    n = len(clipped)
    return {"grad_w": sum(g for g, _ in clipped) / n, "grad_b": sum(g for _, g in clipped) / n}
