"""masked_mean_xent: a verbose student version: asserts on the ranks, the log-softmax by hand
(``jnp.max(keepdims=True)`` under ``stop_gradient``, ``exp``, ``sum``, ``log``), the label's
entry by a one-hot of ``jnp.arange(c) == labels[..., None]``, the mask by ``jnp.expand_dims``,
the padded logits cleared by ``jnp.where``, N as ``jnp.maximum(sum of lengths, 1)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    assert logits.ndim == 3 and labels.ndim == 2 and lengths.ndim == 1
    c = logits.shape[2]
    positions = jnp.arange(labels.shape[1])
    valid = jnp.expand_dims(positions, 0) < jnp.expand_dims(lengths, 1)
    z = jnp.where(jnp.expand_dims(valid, -1), logits, jnp.zeros_like(logits))
    zmax = jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    log_norm = jnp.log(jnp.sum(jnp.exp(z - zmax), axis=-1, keepdims=True)) + zmax
    log_probs = z - log_norm
    one_hot = (jnp.arange(c) == labels[..., None]).astype(jnp.float32)
    token_nll = -jnp.sum(one_hot * log_probs, axis=-1)
    token_nll = token_nll * valid.astype(jnp.float32)
    n_valid = jnp.maximum(jnp.sum(lengths), 1).astype(jnp.float32)
    return jnp.sum(token_nll) / n_valid
