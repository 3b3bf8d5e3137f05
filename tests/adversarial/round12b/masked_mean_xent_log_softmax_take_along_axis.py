"""masked_mean_xent: ``jax.nn.log_softmax`` over the classes, the target's entry by
``jnp.take_along_axis``, the mask ``jnp.arange(t)[None, :] < lengths[:, None]``, the padded
logits replaced by zeros first (so nothing overflows there), the sum divided by
``lengths.sum()``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    mask = jnp.arange(t)[None, :] < lengths[:, None]
    safe = jnp.where(mask[..., None], logits, 0.0)
    logp = jax.nn.log_softmax(safe, axis=-1)
    picked = jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    nll = jnp.where(mask, -picked, 0.0)
    return nll.sum() / lengths.sum().astype(jnp.float32)
