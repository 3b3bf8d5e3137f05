"""masked_mean_xent: the padded positions' losses set to NaN with ``jnp.where`` and the mean
taken by ``jnp.nanmean`` (the padded logits cleared first, so every valid loss is finite); the
log-softmax by ``jax.nn.log_softmax``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    z = jnp.where(valid[..., None], logits, 0.0)
    nll = -jnp.take_along_axis(jax.nn.log_softmax(z), labels[..., None], axis=-1)[..., 0]
    return jnp.nanmean(jnp.where(valid, nll, jnp.nan))
