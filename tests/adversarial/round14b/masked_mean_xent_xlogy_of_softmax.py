"""masked_mean_xent: a wrong honest form: the loss as ``-xlogy(one_hot, softmax(logits))``: the
softmax of logits 200 apart underflows to 0 at the target, so its log is -inf (and the
gradient NaN) where the stable forms are finite.

Problem: masked_mean_xent
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import xlogy


def masked_mean_xent(logits, labels, lengths):
    p = jax.nn.softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(labels, logits.shape[-1])
    nll = -jnp.sum(xlogy(onehot, p), axis=-1)
    valid = (jnp.arange(logits.shape[1]) < lengths[:, None]).astype(jnp.float32)
    return jnp.sum(nll * valid) / jnp.sum(valid)
