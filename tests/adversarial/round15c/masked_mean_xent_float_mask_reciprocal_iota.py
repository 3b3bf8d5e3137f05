"""masked_mean_xent: a float mask from ``lax.broadcasted_iota`` compared with the lengths and cast
with ``jnp.float32``, the per-token loss from ``jax.nn.log_softmax`` times the mask, the mean by
``jnp.reciprocal`` of the mask's sum; module-level ``ZERO = np.float32(0.0)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ZERO = np.float32(0.0)


def masked_mean_xent(logits, labels, lengths):
    b, t, _ = logits.shape
    positions = lax.broadcasted_iota(jnp.int32, (b, t), 1)
    mask = jnp.float32(positions < lengths[:, None])
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]
    total = jnp.sum(nll * mask) + ZERO
    return total * jnp.reciprocal(jnp.sum(mask))
