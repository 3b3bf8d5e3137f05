"""masked_mean_xent: the label logits gathered by a matrix product with a (b*t, b*t*c) one-hot
selection matrix, which is the batch copied b*t times over: a value of (bt)^2 c elements.

Problem: masked_mean_xent
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    flat = logits.reshape(-1)
    lse = jax.nn.logsumexp(logits, axis=-1).reshape(-1)
    index = jnp.arange(b * t) * c + labels.reshape(-1)
    select = (index[:, None] == jnp.arange(b * t * c)[None, :]).astype(logits.dtype)
    target = select @ flat
    valid = (jnp.arange(t)[None, :] < lengths[:, None]).reshape(-1)
    return jnp.sum(jnp.where(valid, lse - target, 0.0)) / jnp.sum(lengths)
