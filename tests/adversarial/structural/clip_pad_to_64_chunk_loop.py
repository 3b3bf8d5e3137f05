"""CHEAT per_example_clip (no detection): pad to 64 rows with a symbolic pad width, then a
fixed Python loop over 8 chunks of 8 examples, each chunk vmapped (the "fixed loop of eight
batched chunks" of issue 33, written so that n is never read as a number).
Intended: RJ (unrolled_loop / dim_read_as_number)."""
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
