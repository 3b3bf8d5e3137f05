"""masked_mean_xent: the per-token loss written for one ``(c,)`` logit row and one label, spread
over ``(b, t)`` with ``jnp.vectorize(signature="(c),()->()")``; the mask from an ``arange``
compared with the lengths, ``where`` to zero the padding, the sum divided by the lengths' sum.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def token_nll(row, label):
    return jax.nn.logsumexp(row) - row[label]


def masked_mean_xent(logits, labels, lengths):
    nll = jnp.vectorize(token_nll, signature="(c),()->()")(logits, labels)
    mask = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(lengths)
