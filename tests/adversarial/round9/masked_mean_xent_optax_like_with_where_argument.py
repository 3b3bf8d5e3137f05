"""masked_mean_xent: optax-like ``softmax_cross_entropy_with_integer_labels`` written with
``jax.nn.logsumexp(..., where=...)``-free code: logsumexp of every row minus the label's logit
(an einsum with ``jax.nn.one_hot``), then ``jnp.mean(losses, where=valid)``, the ``where``
argument of ``jnp.mean`` doing the masking (its derivative at padded positions is zero, and the
padded rows stay finite since logsumexp is stable).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    lse = jax.nn.logsumexp(logits, axis=-1)
    target = jnp.einsum("btc,btc->bt", logits, jax.nn.one_hot(labels, logits.shape[-1]))
    losses = lse - target
    valid = jnp.arange(logits.shape[1]) < lengths[:, None]
    return jnp.mean(losses, where=valid)
