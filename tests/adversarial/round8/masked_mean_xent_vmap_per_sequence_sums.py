"""masked_mean_xent: a per-sequence function under ``jax.vmap`` returns the sequence's summed loss
over its valid positions (``jnp.where`` on a position mask made from the length), and the batch's
total is divided by the sum of the lengths, so one mean over all the valid tokens.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _sequence_sum(z, lab, n):
    mask = jnp.arange(z.shape[0]) < n
    z = jnp.where(mask[:, None], z, 0.0)
    nll = jax.nn.logsumexp(z, axis=-1) - jnp.take_along_axis(z, lab[:, None], axis=-1)[:, 0]
    return jnp.sum(jnp.where(mask, nll, 0.0))


def masked_mean_xent(logits, labels, lengths):
    sums = jax.vmap(_sequence_sum)(logits, labels, lengths)
    return jnp.sum(sums) / jnp.sum(lengths).astype(logits.dtype)
