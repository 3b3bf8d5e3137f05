"""masked_mean_xent: ``jax.nn.logsumexp`` minus the picked logit by a one-hot product, the
valid positions from ``jnp.arange(t) < jnp.expand_dims(lengths, -1)``, the loss a ``where`` on
the per-token losses summed and divided by ``lengths.sum()``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    c = logits.shape[-1]
    picked = jnp.sum(jax.nn.one_hot(labels, c, dtype=logits.dtype) * logits, axis=-1)
    token_loss = jax.nn.logsumexp(logits, axis=-1) - picked
    valid = jnp.arange(logits.shape[1]) < jnp.expand_dims(lengths, -1)
    return jnp.sum(jnp.where(valid, token_loss, 0.0)) / lengths.sum().astype(jnp.float32)
