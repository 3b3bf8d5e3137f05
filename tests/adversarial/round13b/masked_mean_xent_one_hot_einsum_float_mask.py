"""masked_mean_xent: ``jax.nn.one_hot`` of the labels contracted with the log-probabilities by
``einsum("btc,btc->bt")``, a float mask from ``jnp.arange(t) < lengths[:, None]``, the loss
``einsum("bt,bt->")`` of the two over the mask's sum.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    c = logits.shape[-1]
    log_probs = jax.nn.log_softmax(logits)
    targets = jax.nn.one_hot(labels, c, dtype=logits.dtype)
    token_nll = -jnp.einsum("btc,btc->bt", targets, log_probs)
    mask = (jnp.arange(logits.shape[1])[None, :] < lengths[:, None]).astype(logits.dtype)
    return jnp.einsum("bt,bt->", token_nll, mask) / jnp.sum(mask)
