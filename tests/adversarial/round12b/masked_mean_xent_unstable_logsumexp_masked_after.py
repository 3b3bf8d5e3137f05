"""masked_mean_xent: ``jnp.log(jnp.sum(jnp.exp(z)))`` without a shift, the mask multiplied in
after: valid logits reach 200 and padded ones 1e4, so exp overflows and the loss or its
gradient is NaN or infinite. Wrong, as the statement warns.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    lse = jnp.log(jnp.sum(jnp.exp(logits), axis=-1))
    target = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    mask = (jnp.arange(logits.shape[1])[None] < lengths[:, None]).astype(jnp.float32)
    return jnp.sum((lse - target) * mask) / jnp.sum(mask)
