"""masked_mean_xent, honest: ``jnp.mean(..., where=mask)`` over the valid positions, the mask from
``lax.broadcasted_iota`` against the lengths.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    nll = -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[..., None], axis=-1)[..., 0]
    positions = jax.lax.broadcasted_iota(jnp.int32, labels.shape, 1)
    return jnp.mean(nll, where=positions < lengths[:, None])
