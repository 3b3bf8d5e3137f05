"""masked_mean_xent: the mask from a cumulative sum of ones along time compared with the
lengths, and the mean as ``jnp.average(nll, weights=mask)``; the per-token loss from
``jax.nn.logsumexp`` minus the label logit picked by ``jnp.take_along_axis``.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    position = jnp.cumsum(jnp.ones_like(labels), axis=1)          # 1, 2, ..., t per row
    mask = (position <= lengths[:, None]).astype(logits.dtype)
    target = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    nll = jax.nn.logsumexp(logits, axis=-1) - target
    return jnp.average(nll, weights=mask)
