"""masked_mean_xent: a lax.cond on ``logits.shape[0] == 1`` as data, whose branch for a single
sequence ignores its length. The cases with b = 1 run that branch and are graded like any other:
a hidden one has padding.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]

    def batched(picked):
        valid = jnp.arange(picked.shape[1])[None, :] < lengths[:, None]
        return jnp.sum(jnp.where(valid, -picked, 0.0)) / jnp.sum(valid).astype(picked.dtype)

    def single(picked):
        return -jnp.mean(picked)

    return jax.lax.cond(jnp.array(logits.shape[0]) == 1, single, batched, picked)
