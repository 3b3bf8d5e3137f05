"""masked_mean_xent: the mask multiplied in only after a stable log-softmax of the raw logits:
the padded positions' logits of up to 1e4 are stable under the max shift, so the value is
right and their gradient is exactly zero (the mask times a finite softmax) — a student's
first version.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, labels[:, :, None], axis=2).squeeze(-1)
    mask = (jnp.arange(labels.shape[1]) < lengths[:, None]).astype(nll.dtype)
    return (nll * mask).sum() / mask.sum()
