"""masked_mean_xent: another program for a batch of one sequence (the cases where a symbolic
extent is 1 were once left out of a comparison of two programs). The branch reads b's value:
with b a symbol, JAX would answer ``b == 1`` with False and run the batched program on every
case, the special case silently never; the judge says instead that the code reads b as a
number, as it does for ``b >= 2``, naming the line.

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
