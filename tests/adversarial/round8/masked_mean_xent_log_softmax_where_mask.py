"""masked_mean_xent: ``jax.nn.log_softmax(logits, where=valid)``, the padded rows left out of the
softmax altogether (they come back as -inf), the target picked with ``take_along_axis`` and the
padded terms replaced by zeros with ``jnp.where`` before the sum.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    t = logits.shape[1]
    valid = jnp.arange(t)[None, :] < lengths[:, None]
    logp = jax.nn.log_softmax(logits, axis=-1, where=valid[:, :, None])
    picked = jnp.take_along_axis(logp, labels[:, :, None], axis=-1)[..., 0]
    total = jnp.sum(jnp.where(valid, -picked, 0.0))
    return total / jnp.sum(lengths).astype(jnp.float32)
