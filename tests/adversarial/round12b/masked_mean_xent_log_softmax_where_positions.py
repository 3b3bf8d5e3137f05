"""masked_mean_xent: ``jax.nn.log_softmax`` given ``where=`` the positions' mask broadcast over
the classes (its own masking argument) and the padded logits also cleared, the label's entry by
``take_along_axis``, the masked sum over N.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    where = jnp.broadcast_to(valid[..., None], logits.shape)
    z = jnp.where(where, logits, 0.0)
    logp = jax.nn.log_softmax(z, axis=-1, where=where)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(lengths)
