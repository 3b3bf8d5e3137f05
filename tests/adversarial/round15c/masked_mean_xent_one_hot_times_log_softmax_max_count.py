"""masked_mean_xent: the optax-like ``-sum(one_hot * log_softmax)`` per token, the mask
``jnp.arange(t)[None] < lengths[:, None]`` as float32, the count guarded with
``jnp.maximum(mask.sum(), 1.0)`` as a PyTorch habit (never needed: every length is at least 1).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    onehot = jax.nn.one_hot(labels, logits.shape[-1])
    per_token = -jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1)
    mask = (jnp.arange(logits.shape[1])[None] < lengths[:, None]).astype(jnp.float32)
    return jnp.sum(per_token * mask) / jnp.maximum(mask.sum(), 1.0)
