"""masked_mean_xent: a plausible wrong answer: the student masks the logits (padded positions
set to zero) instead of the losses and divides the sum over every position by N; each padded
position still adds -log(1 / c) = log c to the sum.

Problem: masked_mean_xent
Expected: WA
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1]) < lengths[:, None]
    masked = jnp.where(valid[..., None], logits, 0.0)
    logp = jax.nn.log_softmax(masked, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    return jnp.sum(nll) / jnp.sum(lengths)
