"""masked_mean_xent, mistake: the defensive ``-log(jnp.clip(softmax, 1e-7, 1.0))`` learnt from
Keras' ``categorical_crossentropy``: a valid token whose label's probability is below ``1e-7``
(logits up to 200 apart) gets a loss of about 16 instead of its true value, and no gradient.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    z = jnp.where(valid[..., None], logits, 0.0)
    probs = jnp.clip(jax.nn.softmax(z, axis=-1), 1e-7, 1.0)
    picked = jnp.take_along_axis(probs, labels[..., None], axis=-1)[..., 0]
    return jnp.sum(jnp.where(valid, -jnp.log(picked), 0.0)) / jnp.sum(valid)
