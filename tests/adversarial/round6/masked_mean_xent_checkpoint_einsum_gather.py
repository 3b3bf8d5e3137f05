"""masked_mean_xent: the per-token loss under ``jax.checkpoint`` (rematerialized in the
backward pass), the label logit gathered by an ``einsum`` with ``jax.nn.one_hot``, and the mask
built with ``lax.lt`` on ``broadcast_in_dim``-ed operands.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.checkpoint
def _token_nll(z, onehot):
    shifted = z - lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    logp = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))
    return -jnp.einsum("btc,btc->bt", logp, onehot)


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    onehot = jax.nn.one_hot(labels, c, dtype=logits.dtype)
    nll = _token_nll(logits, onehot)
    pos = lax.broadcasted_iota(jnp.int32, (b, t), 1)
    lim = lax.broadcast_in_dim(lengths, (b, t), (0,))
    valid = lax.lt(pos, lim)
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid.astype(jnp.float32))
