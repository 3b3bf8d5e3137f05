"""masked_mean_xent: the probabilities by ``jax.nn.softmax`` (stable), clipped at 1e-30 before
the log to avoid log(0): where a valid target's logit is far below the row's maximum (the cases
go to ±200), the probability underflows to 0 and the clip turns a loss of hundreds into 69,
and its gradient into 0.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    probs = jnp.clip(jax.nn.softmax(logits, axis=-1), 1e-30, 1.0)
    picked = jnp.take_along_axis(probs, labels[..., None], axis=-1)[..., 0]
    valid = jnp.arange(logits.shape[1]) < lengths[:, None]
    return -jnp.sum(jnp.where(valid, jnp.log(picked), 0.0)) / jnp.sum(valid)
