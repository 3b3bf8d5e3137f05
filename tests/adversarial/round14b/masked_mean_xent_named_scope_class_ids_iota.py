"""masked_mean_xent: the log-softmax by ``jax.nn.log_softmax`` under ``jax.named_scope``, the
target picked with a comparison against ``lax.broadcasted_iota`` of the classes and a
``jnp.where``, the valid positions by ``lax.broadcasted_iota`` of the positions, divided by the
valid count as float32.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    with jax.named_scope("xent"):
        logp = jax.nn.log_softmax(logits, axis=-1)
        classes = lax.broadcasted_iota(jnp.int32, logits.shape, 2)
        nll = -jnp.sum(jnp.where(classes == labels[..., None], logp, 0.0), axis=-1)
    positions = lax.broadcasted_iota(jnp.int32, labels.shape, 1)
    valid = positions < lengths[:, None]
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid.astype(jnp.float32))
