"""masked_mean_xent: honest code: ``jax.nn.one_hot`` of the labels times the log-softmax, the mask
from a comparison with ``lengths``, and the count of valid tokens guarded by ``jnp.maximum(N, 1)``
(the statement makes every length at least 1, so no row is all padding and the guard never
acts).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    c = logits.shape[-1]
    mask = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    onehot = jax.nn.one_hot(labels, c, dtype=jnp.float32)
    nll = -jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1)
    n = jnp.maximum(jnp.sum(mask.astype(jnp.float32)), 1.0)
    return jnp.sum(jnp.where(mask, nll, 0.0)) / n
