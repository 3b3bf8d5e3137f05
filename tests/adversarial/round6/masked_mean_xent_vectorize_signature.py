"""masked_mean_xent: one sequence's summed loss written for (t, c) logits and batched with
``jnp.vectorize(signature="(t,c),(t),()->()")``, the valid count from the lengths.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp


def _sequence_loss(z, lab, n):
    logp = jax.nn.log_softmax(z, axis=-1)
    picked = jnp.take_along_axis(logp, lab[:, None], axis=1)[:, 0]
    keep = jnp.arange(z.shape[0]) < n
    return -jnp.sum(jnp.where(keep, picked, 0.0))


def masked_mean_xent(logits, labels, lengths):
    per_sequence = jnp.vectorize(_sequence_loss, signature="(t,c),(t),()->()")
    total = jnp.sum(per_sequence(logits, labels, lengths))
    return total / lengths.sum().astype(jnp.float32)
