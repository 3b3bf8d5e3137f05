"""masked_mean_xent: the token losses from ``jax.nn.log_softmax`` and a one-hot of the labels
(``jax.nn.one_hot``), averaged with ``jnp.average(losses, weights=valid)``, the mask made a
float32 weight.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    losses = -jnp.sum(jax.nn.one_hot(labels, logits.shape[-1]) * jax.nn.log_softmax(logits), axis=-1)
    valid = (jnp.arange(labels.shape[1])[None, :] < lengths[:, None]).astype(jnp.float32)
    return jnp.average(losses, weights=valid)
