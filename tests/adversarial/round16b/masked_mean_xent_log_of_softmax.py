"""masked_mean_xent: a near miss: ``jnp.log(jax.nn.softmax(logits))``: softmax is computed
stably, but a probability that underflows to 0 (a target logit 200 below the largest) gives
``-inf`` at a valid position.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    mask = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    p = jax.nn.softmax(logits, axis=-1)
    nll = -jnp.log(jnp.take_along_axis(p, labels[..., None], axis=-1)[..., 0])
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(mask)
