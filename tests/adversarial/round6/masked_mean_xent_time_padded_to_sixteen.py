"""masked_mean_xent: every sequence padded along time to the largest t (16) with ``jnp.pad``
(the pad width 16 - t computed from the symbol, never read as a number), then a fixed-shape
computation on the (b, 16, c) buffer: a copy into a buffer of a fixed size, larger than 4btc +
c^2 + 64 wherever t is small and c or b large.

Problem: masked_mean_xent
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp

MAX_T = 16


def masked_mean_xent(logits, labels, lengths):
    t = logits.shape[1]
    z = jnp.pad(logits, ((0, 0), (0, MAX_T - t), (0, 0)))
    lab = jnp.pad(labels, ((0, 0), (0, MAX_T - t)))
    logp = jax.nn.log_softmax(z, axis=-1)
    nll = -jnp.take_along_axis(logp, lab[..., None], axis=-1)[..., 0]
    valid = jnp.arange(MAX_T)[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(lengths)
