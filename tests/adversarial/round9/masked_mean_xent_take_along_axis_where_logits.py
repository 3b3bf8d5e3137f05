"""masked_mean_xent: the padded positions' logits replaced by zeros with ``jnp.where`` before
anything is computed (so nothing can overflow there), ``jax.nn.log_softmax``, the label's entry
by ``jnp.take_along_axis``, and the mask from ``jnp.arange(t) < lengths[:, None]`` as a float.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    safe = jnp.where(valid[..., None], logits, 0.0)
    logp = jax.nn.log_softmax(safe, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    mask = valid.astype(jnp.float32)
    return jnp.sum(nll * mask) / jnp.sum(mask)
