"""per_example_clip: a cheat that never reads n: the batch processed in four fixed chunks of 16
rows (``jnp.take`` of ``arange(16) + 16 * k`` with ``mode="fill"``, rows past n masked by an
array comparison), each chunk's per-example gradients by ``vmap``: a loop padded to a fixed count
(4 trips), and every chunk's 16-row buffer a copy of part of the batch of a fixed size, which
the statement refuses. A chunk of 16 rows by d fits the size bound at every n, and four trips
of it stay under the 400-equation cap.

Problem: per_example_clip
Expected: RJ unrolled_loop
Closed by: the four chunks are four fixed sets of rows of n, each gathered at indices computed
  from literals and ``iota`` alone (``judge.worker.picks``): three places of n or more picked at
  indices written in the program are a loop over n written out (``judge.rules.fixed_loops``)
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = jnp.asarray(X.shape[0])
    loss = lambda w, b, x, t: 0.5 * (x @ w + b - t) ** 2
    per_example = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    total_w, total_b = jnp.zeros_like(w), jnp.zeros_like(b)
    for k in range(4):
        idx = jnp.arange(16) + 16 * k
        xs = jnp.take(X, idx, axis=0, mode="fill", fill_value=0.0)
        ts = jnp.take(y, idx, axis=0, mode="fill", fill_value=0.0)
        gw, gb = per_example(w, b, xs, ts)
        norm = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
        keep = (idx < n) / jnp.maximum(1.0, norm / clip_norm)
        total_w = total_w + jnp.sum(gw * keep[:, None], axis=0)
        total_b = total_b + jnp.sum(gb * keep)
    return {"grad_w": total_w / n, "grad_b": total_b / n}
