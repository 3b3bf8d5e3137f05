"""masked_mean_xent: the target log-probability as logsumexp(z) - logsumexp(z, b=one_hot), the
second a logsumexp weighted by the one-hot label (which is the target logit, stably), the padded
positions' logits replaced by zeros first (so nothing there overflows or reaches the gradient).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    valid = jnp.arange(t) < lengths[:, None]
    z = jnp.where(valid[..., None], logits, 0.0)
    onehot = jax.nn.one_hot(labels, c, dtype=z.dtype)
    per_token = logsumexp(z, axis=-1) - logsumexp(z, axis=-1, b=onehot)
    return jnp.sum(per_token * valid) / jnp.sum(valid)
