"""masked_mean_xent: an honest forward in a ``jax.custom_vjp`` whose backward loops over the b
sequences in Python. The judge's vjp is traced into the program with b a symbol, so the
backward reads b as a number.

Problem: masked_mean_xent
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def _mask(logits, lengths):
    return jnp.arange(logits.shape[1])[None, :] < lengths[:, None]


@jax.custom_vjp
def _loss(logits, labels, lengths):
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits, -1), labels[..., None], -1)[..., 0]
    valid = _mask(logits, lengths)
    return jnp.sum(jnp.where(valid, -picked, 0.0)) / jnp.sum(valid).astype(logits.dtype)


def _fwd(logits, labels, lengths):
    return _loss(logits, labels, lengths), (logits, labels, lengths)


def _bwd(res, g):
    logits, labels, lengths = res
    valid = _mask(logits, lengths)
    count = jnp.sum(valid).astype(logits.dtype)
    rows = []
    for i in range(logits.shape[0]):
        p = jax.nn.softmax(logits[i], -1) - jax.nn.one_hot(labels[i], logits.shape[-1])
        rows.append(jnp.where(valid[i][:, None], p, 0.0) * g / count)
    return jnp.stack(rows), None, None


_loss.defvjp(_fwd, _bwd)


def masked_mean_xent(logits, labels, lengths):
    return _loss(logits, labels, lengths)
