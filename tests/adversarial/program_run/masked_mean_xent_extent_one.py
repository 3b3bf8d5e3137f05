"""masked_mean_xent: a branch for a batch of one sequence (the cases where a symbolic extent is 1
were once left out of a comparison). The extent is a symbol in the one program every case runs,
so the branch reads it as a number.

Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]
    if logits.shape[0] == 1:
        return -jnp.sum(picked[0, :lengths[0]]) / lengths[0]
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(valid, -picked, 0.0)) / jnp.sum(valid).astype(logits.dtype)
