"""masked_mean_xent: honest code: a per-row sum of token losses under ``jax.vmap`` (each row's
mask from its length), ``jnp.asarray(..., dtype=...)`` everywhere, and the final division in a
``jax.lax.cond`` on a Python bool with lambdas.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

TOKEN_MEAN = True


def _row_sum(row_logits, row_labels, length):
    valid = jnp.arange(row_logits.shape[0]) < length
    logp = jax.nn.log_softmax(row_logits)
    nll = -jnp.take_along_axis(logp, row_labels[:, None], axis=1)[:, 0]
    return jnp.asarray(jnp.sum(jnp.where(valid, nll, 0.0)), dtype=jnp.float32)


def masked_mean_xent(logits, labels, lengths):
    logits = jnp.asarray(logits, dtype=jnp.float32)
    sums = jax.vmap(_row_sum)(logits, labels, lengths)
    total = jnp.sum(sums)
    count = jnp.asarray(jnp.sum(lengths), dtype=jnp.float32)
    return jax.lax.cond(TOKEN_MEAN, lambda a: a[0] / a[1], lambda a: a[0], (total, count))
