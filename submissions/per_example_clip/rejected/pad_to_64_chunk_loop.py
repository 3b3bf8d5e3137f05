"""Pads the batch to 64 rows (a pad width computed from n, so n is never read as a number),
then runs a fixed Python loop over 8 chunks of 8 examples, each chunk vmapped: a loop over
the examples in disguise. Refused by the size rule: a 64-row buffer at small n."""
import jax
import jax.numpy as jnp

ROWS, CHUNK = 64, 8


def loss(w, b, x, t):
    return 0.5 * (jnp.dot(x, w) + b - t) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    Xp = jnp.pad(X, ((0, ROWS - n), (0, 0)))
    yp = jnp.pad(y, (0, ROWS - n))
    valid = (jnp.arange(ROWS) < n).astype(X.dtype)
    per = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    tw, tb = jnp.zeros_like(w), jnp.zeros_like(b)
    for c in range(ROWS // CHUNK):
        sl = slice(c * CHUNK, (c + 1) * CHUNK)
        gw, gb = per(w, b, Xp[sl], yp[sl])
        f = valid[sl] / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2) / clip_norm)
        tw, tb = tw + jnp.sum(gw * f[:, None], axis=0), tb + jnp.sum(gb * f)
    return {"grad_w": tw / n, "grad_b": tb / n}
