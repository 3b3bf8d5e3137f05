import jax.numpy as jnp
from jax.nn import logsumexp


def masked_mean_xent(logits, labels, lengths):
    # cross-entropy = logsumexp(z) - z[label]
    target_logit = jnp.take_along_axis(logits, labels[:, :, None], axis=2).squeeze(2)
    token_loss = logsumexp(logits, axis=2) - target_logit
    positions = jnp.arange(logits.shape[1])
    valid = positions < lengths[:, None]
    return jnp.where(valid, token_loss, 0.0).sum() / valid.sum()
