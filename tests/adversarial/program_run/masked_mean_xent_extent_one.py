"""masked_mean_xent: another program for a batch of one sequence (the cases where a symbolic
extent is 1 were once left out of a comparison of two programs). The branch is decided once, on
the symbol b, which JAX never finds equal to 1: every case, b = 1 included, runs the batched
program, which is honest, and the other branch never runs.

Expected: AC
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
