"""masked_mean_xent: the logits clamped to [-150, 150] "for stability" before a plain
``log(sum(exp))`` shifted by the max: the examples' valid logits stay within 125, but a valid
logit beyond 150 (the cases go to 200) changes the loss and zeroes its gradient.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    z = jnp.clip(logits, -150.0, 150.0)
    logp = jax.nn.log_softmax(z, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    mask = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(lengths)
