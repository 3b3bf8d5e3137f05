"""masked_mean_xent: the batch flattened to one row per token with ``reshape(-1, c)`` (b * t rows,
a product of the two symbols), the labels and the mask with ``reshape(-1)``, the target picked
by ``take_along_axis`` on the 2-D log-probabilities.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    flat = logits.reshape(-1, c)
    ids = labels.reshape(-1)
    mask = (jnp.arange(t)[None, :] < lengths[:, None]).reshape(-1)
    logp = jax.nn.log_softmax(flat, axis=-1)
    nll = -jnp.take_along_axis(logp, ids[:, None], axis=1)[:, 0]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / mask.sum()
