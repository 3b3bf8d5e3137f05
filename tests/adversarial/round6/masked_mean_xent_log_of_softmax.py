"""masked_mean_xent: ``log(softmax)`` instead of ``log_softmax``, with the padded logits zeroed
first so the padding leaks nothing: right wherever the label's probability stays above
float32's smallest normal, but a valid label whose logit is more than about 104 below the row's
max has probability 0, a loss of inf and a NaN gradient.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    mask = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    z = jnp.where(mask[..., None], logits, 0.0)
    p = jax.nn.softmax(z, axis=-1)
    target = jnp.take_along_axis(p, labels[..., None], axis=-1)[..., 0]
    nll = jnp.where(mask, -jnp.log(target), 0.0)
    return jnp.sum(nll) / jnp.sum(lengths)
